/** Installed models in <dataDir>/models and the active one, kept in <dataDir>/models/active.json. */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { findCatalogModel } from '../../engines/whisper/model-catalog.js';
import { modelsDir } from '../../engines/whisper/model-files.js';
import { type ModelHeader, readModelHeader } from '../../engines/whisper/model-header.js';
import { ModelError } from './model-errors.js';
import { checkModelFileName } from './models-dir.js';

export interface InstalledModel {
  file: string;
  path: string;
  bytes: number;
  /** Catalog name ("base.en") when the file is a standard model. */
  name?: string;
  /** Undefined when the file is not a usable model (its problem is in `problem`). */
  header?: ModelHeader;
  problem?: string;
  active: boolean;
}

export function createModelStore({ dataDir }: { dataDir: string }) {
  const dir = modelsDir(dataDir);
  const activeFile = join(dir, 'active.json');

  async function getActiveFile(): Promise<string | undefined> {
    const raw = await readFile(activeFile, 'utf8').catch(() => undefined);
    if (!raw) return undefined;
    try {
      const file = (JSON.parse(raw) as { file?: unknown }).file;
      return typeof file === 'string' ? file : undefined;
    } catch {
      return undefined; // a hand-edited, broken active.json means "none chosen", not a crash
    }
  }

  async function list(): Promise<InstalledModel[]> {
    const names = await readdir(dir).catch(() => [] as string[]);
    const active = await getActiveFile();
    const files = names.filter((n) => n.endsWith('.bin')).sort();
    return Promise.all(files.map((file) => describe(file, file === active)));
  }

  async function describe(file: string, active: boolean): Promise<InstalledModel> {
    const path = join(dir, file);
    const { size } = await stat(path);
    const base = { file, path, bytes: size, name: findCatalogModel(file)?.name, active };
    return readModelHeader(path).then(
      (header) => ({ ...base, header }),
      (err: Error) => ({ ...base, problem: err.message }),
    );
  }

  /** Makes an installed, valid model the active one; the choice survives restarts. */
  async function setActive(file: string): Promise<InstalledModel> {
    checkModelFileName(file);
    const model = await describe(file, true).catch(() => {
      throw new ModelError('not_installed', `model ${file} is not installed`);
    });
    if (!model.header) throw new ModelError('not_installed', `model ${file} is not usable: ${model.problem}`);
    await mkdir(dir, { recursive: true });
    const temp = `${activeFile}.${randomUUID()}.tmp`;
    await writeFile(temp, `${JSON.stringify({ file })}\n`);
    await rename(temp, activeFile); // atomic: readers see the old or the new choice, never half a file
    return model;
  }

  async function remove(file: string): Promise<void> {
    checkModelFileName(file);
    if ((await getActiveFile()) === file) await rm(activeFile, { force: true });
    await rm(join(dir, file), { force: true });
  }

  /**
   * The model to load: `overridePath` (e.g. a --whisper-model flag) wins, else the active model.
   * Undefined when neither is set; throws InvalidModelError when the chosen file is not usable.
   */
  async function resolveActiveModel(
    overridePath?: string,
  ): Promise<{ path: string; header: ModelHeader } | undefined> {
    const path = overridePath ?? (await getActiveFile().then((f) => (f ? join(dir, f) : undefined)));
    if (!path) return undefined;
    return { path, header: await readModelHeader(path) };
  }

  return { list, getActiveFile, setActive, remove, resolveActiveModel };
}

export type ModelStore = ReturnType<typeof createModelStore>;
