import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { DevicePreference, ModelsWithDevice } from '../../../api/transcription-device';

/**
 * The device Whisper runs on now and whether a GPU backend exists: the models overview, read for these two. While
 * the worker still runs on an earlier choice than `preference`, it asks again every 2 s until it has moved.
 */
export const transcriptionDeviceQuery = (preference?: DevicePreference) =>
  queryOptions({
    queryKey: ['models'],
    queryFn: ({ signal }) => api<ModelsWithDevice>('/api/v1/models', { signal }),
    select: (o: ModelsWithDevice) => ({ device: o.device ?? null, gpuAvailable: o.gpuAvailable }),
    refetchInterval: (query) => {
      const device = query.state.data?.device;
      return preference && device && device.preference !== preference ? 2000 : false;
    },
  });

export const useTranscriptionDevice = (preference?: DevicePreference) =>
  useQuery(transcriptionDeviceQuery(preference));
