import { useArchive } from '../../../api/publications';

/** POST /api/v1/artifacts/:slug/archive and /unarchive. */
export const useArchiveArtifact = () => useArchive('artifacts');
