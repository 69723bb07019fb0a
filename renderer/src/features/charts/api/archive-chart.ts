import { useArchive } from '../../../api/publications';

/** POST /api/v1/charts/:slug/archive and /unarchive. */
export const useArchiveChart = () => useArchive('charts');
