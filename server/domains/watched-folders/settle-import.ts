/**
 * What happens once an imported recording's transcript settles: its row says completed or failed (the failure is
 * what the dashboard lists for the folder), and a completed one is written beside the recording when the folder
 * asks for it. Runs again at start-up for rows whose transcript was still running when Folio stopped.
 */
import { join } from 'node:path';
import type { Logger } from '../../log.js';
import type { Store } from '../../store/types.js';
import type { TranscriptService } from '../transcripts/service.js';
import { watchedFilesCollection } from './collections.js';
import type { BesideFormat, WatchedFileRecord } from './schema.js';
import { writeBeside } from './write-beside.js';

export type SettleDeps = { store: Store; transcripts: TranscriptService; log: Logger };

export async function settleImport(
  { store, transcripts, log }: SettleDeps,
  target: { workspaceId: string; root: string; beside: BesideFormat[] },
  row: WatchedFileRecord,
): Promise<void> {
  if (!row.transcriptId) return;
  const rows = store.collection(watchedFilesCollection, target.workspaceId);
  const outcome = await transcripts
    .settled(target.workspaceId, row.transcriptId)
    .then(({ transcript }) => transcript)
    .catch(() => undefined); // deleted meanwhile
  const at = new Date().toISOString();
  if (!outcome || outcome.status === 'failed') {
    const error = outcome?.error ?? 'the transcript was deleted';
    await rows.update(row.id, { status: 'failed', error, updatedAt: at });
    log.warn(`Watched folder: ${row.name} failed: ${error}`);
    return;
  }
  await rows.update(row.id, { status: 'completed', error: null, updatedAt: at });
  if (!target.beside.length) return;
  const transcript = await transcripts.get(target.workspaceId, outcome.id);
  const { skipped } = await writeBeside(join(target.root, row.name), target.beside, (format) =>
    transcripts.exportAs(transcript, format),
  ).catch((error: Error) => {
    log.warn(`Watched folder: could not write the transcript beside ${row.name}: ${error.message}`);
    return { skipped: [] };
  });
  for (const path of skipped) log.info(`Watched folder: ${path} exists, so it was left as it is`);
}
