import { useQuery } from '@tanstack/react-query';
import { versionsQuery } from '../../../api/publications';

/** GET /api/v1/diagrams/:slug/versions */
export const diagramVersionsQuery = (slug: string) => versionsQuery('diagrams', slug);
export const useDiagramVersions = (slug: string) => useQuery(diagramVersionsQuery(slug));
