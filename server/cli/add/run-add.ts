// `folio add`: the files of a folder into a workspace, directly into the backend or through a running instance's
// API; prints progress while it works and a summary at the end. Resolves true when a file could not be added.
import { withStore } from '../open-for-cli.js';
import { addLocal } from './add-local.js';
import { addRemote } from './add-remote.js';
import { createProgress } from './progress.js';

export type RunAdd = {
  dir: string;
  dataDir?: string;
  workspace?: string;
  tags: string[];
  url?: string;
  key?: string;
};

export async function runAdd(input: RunAdd): Promise<boolean> {
  const progress = createProgress((text) => process.stderr.write(text), Boolean(process.stderr.isTTY));
  const log = (line: string) => {
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
    console.error(line);
  };
  const options = { dir: input.dir, tags: input.tags, progress, log };
  const walked =
    input.url !== undefined
      ? await addRemote({ ...options, url: input.url, key: input.key ?? '' })
      : await withStore(input.dataDir, log, (store, config) =>
          addLocal(store, config, { ...options, workspace: input.workspace }),
        );
  const passed = [
    walked.links ? `${walked.links} symbolic links` : '',
    walked.others ? `${walked.others} entries that are not files` : '',
  ].filter(Boolean);
  console.log(progress.summary(passed.length ? [`Left alone: ${passed.join(', ')}`] : []));
  return progress.tally.failed > 0;
}
