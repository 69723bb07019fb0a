/** Request shapes of the artifacts routes (the shared publication shapes are in publishing/schema.ts). */
import { z } from 'zod';
import { PublishFields, UpdateFields } from '../schema.js';

export const ArtifactDocument = z
  .record(z.string(), z.unknown())
  .describe(
    '{ "children": [components] }: components from GET /api/v1/artifacts/components, each { "type": ..., ... }',
  );

export const PublishArtifactBody = z.strictObject({ ...PublishFields, document: ArtifactDocument });
export type PublishArtifactBody = z.output<typeof PublishArtifactBody>;
export const UpdateArtifactBody = z.strictObject({ ...UpdateFields, document: ArtifactDocument });
export type UpdateArtifactBody = z.output<typeof UpdateArtifactBody>;

export const ValidateArtifactBody = z.strictObject({ document: z.unknown() });

export const ValidationResult = z.object({
  valid: z.boolean(),
  issues: z.array(
    z.object({ path: z.string().describe('JSON pointer into the document'), message: z.string() }),
  ),
});

export const ComponentCatalog = z.object({
  components: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      schema: z.record(z.string(), z.unknown()).describe('JSON Schema (draft-07) of the component'),
      example: z.record(z.string(), z.unknown()),
    }),
  ),
  document: z.object({ description: z.string(), example: z.record(z.string(), z.unknown()) }),
});

export const ArtifactPageQuery = z.object({ version: z.coerce.number().int().min(1).optional() });
