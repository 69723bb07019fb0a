import { useArchive } from '../../../api/publications';

/** POST /api/v1/diagrams/:slug/archive and /unarchive. */
export const useArchiveDiagram = () => useArchive('diagrams');
