import { useQuery } from '@tanstack/react-query';
import { publicationQuery } from '../../../api/publications';

/** GET /api/v1/artifacts/:slug?version=N */
export const artifactQuery = (slug: string, version?: number) => publicationQuery('artifacts', slug, version);
export const useArtifact = (slug: string, version?: number) => useQuery(artifactQuery(slug, version));
