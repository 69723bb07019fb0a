// Entry of every render worker thread (render-pool.ts). Plain JavaScript so a worker starts the same under
// tsx, vitest or a bundled build: it loads the TypeScript task modules listed in workerData through tsx,
// and answers each task as { value } or { failure } (a RenderFailure keeps its status across the thread).
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const tables = await Promise.all(workerData.modules.map((url) => tsImport(url, import.meta.url)));
const tasks = Object.assign({}, ...tables.map((module) => module.renderTasks));

export default async function runRenderTask({ task, input }) {
  if (task === 'ping') return { value: true };
  const handler = tasks[task];
  if (!handler) return { failure: { status: 500, message: `unknown render task ${task}` } };
  try {
    return { value: await handler(input) };
  } catch (error) {
    if (error && error.name === 'RenderFailure')
      return { failure: { status: error.status, message: error.message, details: error.details } };
    throw error;
  }
}
