/** The model manager behind routes.ts: wraps models/ (catalog, store, download, import) and tracks downloads. */
import { rm } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ActiveEngine } from '../../engines/whisper/active-engine.js';
import { findCatalogModel, modelCatalog } from '../../engines/whisper/model-catalog.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { downloadModel } from './download-model.js';
import { importModel } from './import-model.js';
import type { ModelStore } from './model-store.js';
import { checkModelFileName, partPath } from './models-dir.js';

export type DownloadSource = { url?: string; sha256?: string };

type Download = {
  name: string;
  file: string;
  status: 'downloading' | 'completed' | 'failed' | 'cancelled';
  receivedBytes: number;
  totalBytes?: number;
  percent: number;
  error?: string;
  startedAt: string;
};

export interface ModelManagerDeps {
  dataDir: string;
  modelStore: ModelStore;
  active: ActiveEngine;
  baseUrl?: string;
}

export function createModelManager({ dataDir, modelStore, active, baseUrl }: ModelManagerDeps) {
  const downloads = new Map<string, Download>();
  const inFlight = new Map<string, { controller: AbortController; done: Promise<void> }>();

  async function overview() {
    const installed = (await modelStore.list()).map(({ header: _h, ...m }) => ({ ...m, usable: !m.problem }));
    const activePath = await active.activePath();
    return {
      catalog: modelCatalog.map((m) => ({ ...m, installed: installed.some((i) => i.file === m.file) })),
      installed,
      active: activePath
        ? {
            file: basename(activePath),
            path: activePath,
            source: active.overridden() ? ('whisper-model flag' as const) : ('model manager' as const),
          }
        : null,
      downloads: [...downloads.values()],
      device: active.device(),
      gpuAvailable: active.gpuAvailable(),
    };
  }

  /**
   * Starts (or joins) a download. A catalog model comes from the catalog's host, or from `source.url` (a mirror),
   * and is checked against the catalog's size and hash; a name outside the catalog needs `source.url` and installs
   * as ggml-<name>.bin, checked against `source.sha256` when given. Every download must be a ggml model.
   */
  function startDownload(name: string, source: DownloadSource = {}): Download {
    const model = downloadTarget(name, source);
    const running = downloads.get(model.name);
    if (running?.status === 'downloading') return running;
    const state: Download = {
      name: model.name,
      file: model.file,
      status: 'downloading',
      receivedBytes: 0,
      totalBytes: model.bytes,
      percent: 0,
      startedAt: new Date().toISOString(),
    };
    downloads.set(model.name, state);
    const controller = new AbortController();
    const done = downloadModel({
      dataDir,
      model,
      baseUrl,
      url: source.url,
      signal: controller.signal,
      onProgress: (p) =>
        Object.assign(state, {
          receivedBytes: p.receivedBytes,
          totalBytes: p.totalBytes,
          percent: p.percent,
        }),
    })
      .then(
        () => void Object.assign(state, { status: 'completed', percent: 100 }),
        (error: Error) =>
          void Object.assign(
            state,
            controller.signal.aborted ? { status: 'cancelled' } : { status: 'failed', error: error.message },
          ),
      )
      .finally(() => inFlight.delete(model.name));
    inFlight.set(model.name, { controller, done });
    return state;
  }

  function downloadTarget(name: string, source: DownloadSource) {
    const model = findCatalogModel(name);
    if (model) {
      if (source.sha256 && source.sha256 !== model.sha256)
        throw badRequest(`${model.name} is checked against the catalog's sha256; leave sha256 out`);
      return model;
    }
    if (!source.url) throw notFound(`Model "${name}" in the catalog`);
    const file = checkModelFileName(`ggml-${name}.bin`);
    return { name, file, bytes: undefined, sha256: source.sha256 };
  }

  /** Stops a running download and removes its partial file; the next download of it starts from zero. */
  async function cancelDownload(name: string): Promise<Download> {
    const state = download(name);
    const running = inFlight.get(state.name);
    if (!running) throw conflict(`The download of "${state.name}" is not running; it is ${state.status}`);
    running.controller.abort();
    await running.done;
    await rm(partPath(dataDir, state.file), { force: true });
    return state;
  }

  function download(name: string): Download {
    const state = downloads.get(findCatalogModel(name)?.name ?? name);
    if (!state) throw notFound(`Download of "${name}"`);
    return state;
  }

  async function importFrom(path: string, file?: string) {
    const { path: installed, header } = await importModel({ dataDir, sourcePath: path, file });
    return { file: basename(installed), path: installed, header };
  }

  async function setActive(name: string) {
    const file = findCatalogModel(name)?.file ?? name;
    const model = await modelStore.setActive(file);
    active.useInstalled();
    const { header: _h, ...rest } = model;
    return rest;
  }

  /** The path of an installed, usable model named by file or catalog name (OpenAI's `model` field), if any. */
  async function installedPath(name: string): Promise<string | undefined> {
    const installed = await modelStore.list();
    const found = installed.find(
      (m) => m.header && (m.file === name || m.name === name || m.file === `ggml-${name}.bin`),
    );
    return found?.path;
  }

  /** Deletes an installed model's file; the model that runs transcriptions now cannot be deleted. */
  async function removeInstalled(name: string): Promise<void> {
    const file = findCatalogModel(name)?.file ?? name;
    const installed = (await modelStore.list()).find((m) => m.file === file);
    if (!installed) throw notFound(`Installed model "${name}"`);
    if (installed.path === (await active.activePath()))
      throw conflict(`${file} is the active model: choose another one before deleting it`);
    await modelStore.remove(file);
  }

  return {
    overview,
    installedPath,
    removeInstalled,
    startDownload,
    cancelDownload,
    download,
    importFrom,
    setActive,
    close: () => {
      for (const r of inFlight.values()) r.controller.abort();
    },
  };
}

export type ModelManager = ReturnType<typeof createModelManager>;
