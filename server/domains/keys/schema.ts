import { z } from 'zod';
import { SERVICE_NAMES } from '../../http/viewer.js';

export const ServiceName = z.enum(SERVICE_NAMES);
const Services = z
  .array(ServiceName)
  .max(SERVICE_NAMES.length)
  .transform((s) => [...new Set(s)]);

export const ApiKey = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z
    .string()
    .describe('The first characters of the secret, to recognise it; the secret is never shown again'),
  services: z.array(ServiceName),
  workspaceId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;
export type ApiKeyRow = ApiKey & { hash: string };

export const CreatedApiKey = ApiKey.extend({
  secret: z.string().describe('The full bearer token. Shown this once only: store it server-side now'),
});

export const KeyName = z.string().trim().min(1, 'name must not be empty').max(100);
export const CreateKeyBody = z.strictObject({ name: KeyName, services: Services });
export const UpdateKeyBody = z
  .strictObject({ name: KeyName.optional(), services: Services.optional() })
  .refine((b) => b.name !== undefined || b.services !== undefined, 'send name and/or services');
export const KeyIdParams = z.object({ id: z.string().min(1).max(64) });

/** GET /api/v1/services: every service a key can be scoped to, with what it covers. */
export const ServiceList = z.object({
  data: z.array(z.object({ name: z.enum(SERVICE_NAMES), description: z.string() })),
});
