import { useSetVisibility } from '../../../api/publications';

/** POST /api/v1/diagrams/:slug/visibility (session only). */
export const useDiagramVisibility = () => useSetVisibility('diagrams');
