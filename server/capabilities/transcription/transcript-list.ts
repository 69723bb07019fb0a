/** Filtering and cursor paging of transcript records, newest first. Pure. */
import { paginate } from '../../http/paging.js';
import type { ListTranscriptsQuery, TranscriptRecord } from './schema.js';

export const listTranscriptRecords = (rows: TranscriptRecord[], query: ListTranscriptsQuery) =>
  paginate(
    rows.filter((t) => !query.status || t.status === query.status),
    query,
  );
