/** Copies a model file the user already has into <dataDir>/models, after checking it is a ggml Whisper model. */
import { randomUUID } from 'node:crypto';
import { copyFile, link, mkdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { modelsDir } from '../../engines/whisper/model-files.js';
import { type ModelHeader, readModelHeader } from '../../engines/whisper/model-header.js';
import { ModelError } from './model-errors.js';
import { checkModelFileName } from './models-dir.js';

export interface ImportModelOptions {
  dataDir: string;
  sourcePath: string;
  /** Installed file name; defaults to the source's name. */
  file?: string;
}

/** Throws InvalidModelError for a non-model and ModelError when the name is taken; never overwrites. */
export async function importModel(
  options: ImportModelOptions,
): Promise<{ path: string; header: ModelHeader }> {
  const header = await readModelHeader(options.sourcePath); // first: what is wrong with the path says more
  const file = checkModelFileName(options.file ?? basename(options.sourcePath));
  const dir = modelsDir(options.dataDir);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.import-${randomUUID()}.part`);
  const path = join(dir, file);
  try {
    await copyFile(options.sourcePath, temp);
    await readModelHeader(temp); // the copy, not just the source, must be whole
    // link() fails if the name exists, so two imports cannot overwrite each other
    await link(temp, path).catch((err: NodeJS.ErrnoException) => {
      throw err.code === 'EEXIST'
        ? new ModelError('already_installed', `a model named ${file} is already installed`)
        : err;
    });
  } finally {
    await rm(temp, { force: true });
  }
  return { path, header };
}
