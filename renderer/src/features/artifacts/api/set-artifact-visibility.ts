import { useSetVisibility } from '../../../api/publications';

/** POST /api/v1/artifacts/:slug/visibility (session only). */
export const useArtifactVisibility = () => useSetVisibility('artifacts');
