import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { ModelsWithDevice } from '../../../api/transcription-device';

/** The device Whisper runs on now and whether a GPU backend exists: the models overview, read for these two. */
export const transcriptionDeviceQuery = () =>
  queryOptions({
    queryKey: ['models'],
    queryFn: ({ signal }) => api<ModelsWithDevice>('/api/v1/models', { signal }),
    select: (o: ModelsWithDevice) => ({ device: o.device ?? null, gpuAvailable: o.gpuAvailable }),
  });

export const useTranscriptionDevice = () => useQuery(transcriptionDeviceQuery());
