import { useQuery } from '@tanstack/react-query';
import { publicationQuery } from '../../../api/publications';

/** GET /api/v1/diagrams/:slug?version=N */
export const diagramQuery = (slug: string, version?: number) => publicationQuery('diagrams', slug, version);
export const useDiagram = (slug: string, version?: number) => useQuery(diagramQuery(slug, version));
