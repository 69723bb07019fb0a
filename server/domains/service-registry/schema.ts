import { z } from 'zod';
import { SERVICE_NAMES } from '../../http/viewer.js';

export const ServiceList = z.object({
  data: z.array(z.object({ name: z.enum(SERVICE_NAMES), description: z.string() })),
});
