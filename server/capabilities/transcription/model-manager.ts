/** The model manager behind model-routes.ts: wraps models/ (catalog, store, download, import) and tracks downloads. */
import { basename } from 'node:path';
import { badRequest, HttpError, notFound } from '../../http/errors.js';
import type { ActiveEngine } from './active-engine.js';
import { findCatalogModel, modelCatalog } from './models/catalog.js';
import { downloadModel } from './models/download-model.js';
import { importModel } from './models/import-model.js';
import { ModelError } from './models/model-errors.js';
import { InvalidModelError } from './models/model-header.js';
import type { ModelStore } from './models/model-store.js';

type Download = {
  name: string;
  file: string;
  status: 'downloading' | 'completed' | 'failed';
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
  const controllers = new Map<string, AbortController>();

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
            source: active.overridden() ? 'whisper-model flag' : 'model manager',
          }
        : null,
      downloads: [...downloads.values()],
    };
  }

  function startDownload(name: string): Download {
    const model = findCatalogModel(name);
    if (!model) throw notFound(`Model "${name}" in the catalog`);
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
    controllers.set(model.name, controller);
    downloadModel({
      dataDir,
      model,
      baseUrl,
      signal: controller.signal,
      onProgress: (p) =>
        Object.assign(state, {
          receivedBytes: p.receivedBytes,
          totalBytes: p.totalBytes,
          percent: p.percent,
        }),
    })
      .then(
        () => Object.assign(state, { status: 'completed', percent: 100 }),
        (error: Error) => Object.assign(state, { status: 'failed', error: error.message }),
      )
      .finally(() => controllers.delete(model.name));
    return state;
  }

  function download(name: string): Download {
    const state = downloads.get(findCatalogModel(name)?.name ?? name);
    if (!state) throw notFound(`Download of "${name}"`);
    return state;
  }

  async function importFrom(path: string, file?: string) {
    const { path: installed, header } = await importModel({ dataDir, sourcePath: path, file }).catch(rethrow);
    return { file: basename(installed), path: installed, header };
  }

  async function setActive(name: string) {
    const file = findCatalogModel(name)?.file ?? name;
    const model = await modelStore.setActive(file).catch(rethrow);
    active.useInstalled();
    const { header: _h, ...rest } = model;
    return rest;
  }

  return {
    overview,
    startDownload,
    download,
    importFrom,
    setActive,
    close: () => {
      for (const c of controllers.values()) c.abort();
    },
  };
}

export type ModelManager = ReturnType<typeof createModelManager>;

/** models/ errors carry their own status; these become our `{ error }` answers. */
function rethrow(error: unknown): never {
  if (error instanceof ModelError)
    throw new HttpError(error.status >= 500 ? 502 : error.status, error.message);
  if (error instanceof InvalidModelError) throw badRequest(error.message);
  throw error;
}
