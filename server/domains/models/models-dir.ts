/** Model file names and downloads in progress (<dataDir>/models/<file>.part); the folder is the engine's. */
import { basename, join } from 'node:path';
import { modelsDir } from '../../engines/whisper/model-files.js';
import { ModelError } from './model-errors.js';

/** A download in progress, resumed from where it stopped until it is verified and renamed to `file`. */
export const partPath = (dataDir: string, file: string) => join(modelsDir(dataDir), `${file}.part`);

/** A model file name we are willing to create: a plain "*.bin" name, no directories. */
export function checkModelFileName(file: string): string {
  if (basename(file) !== file || !/^[A-Za-z0-9][A-Za-z0-9._-]*\.bin$/.test(file)) {
    throw new ModelError(
      'bad_name',
      `model file names may use A-Z, a-z, 0-9, ".", "_" and "-" and must end in .bin (got "${file}")`,
    );
  }
  return file;
}
