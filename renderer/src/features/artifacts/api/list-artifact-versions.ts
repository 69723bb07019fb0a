import { useQuery } from '@tanstack/react-query';
import { versionsQuery } from '../../../api/publications';

/** GET /api/v1/artifacts/:slug/versions */
export const artifactVersionsQuery = (slug: string) => versionsQuery('artifacts', slug);
export const useArtifactVersions = (slug: string) => useQuery(artifactVersionsQuery(slug));
