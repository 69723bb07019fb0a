// Entry of every render process (render-pool.ts). Plain JavaScript so a process starts the same under tsx,
// vitest or a bundled build: it loads the TypeScript task modules named in FOLIO_RENDER_MODULES through tsx,
// and answers each task as { value } or { failure } (a RenderFailure keeps its status across the process).
import { setPriority } from 'node:os';
import { serialize } from 'node:v8';
import { tsImport } from 'tsx/esm/api';

// Renders yield the CPU to the process that answers requests (ignored where the OS refuses).
try {
  setPriority(10);
} catch {}

const modules = JSON.parse(process.env.FOLIO_RENDER_MODULES ?? '[]');
const tables = await Promise.all(modules.map((url) => tsImport(url, import.meta.url)));
const tasks = Object.assign({}, ...tables.map((module) => module.renderTasks));

export default async function runRenderTask({ task, input }) {
  if (task === 'ping') return { value: true };
  const handler = tasks[task];
  if (!handler) return { failure: { status: 500, message: `unknown render task ${task}` } };
  try {
    const value = await handler(input);
    // a value that cannot cross to the server (a function, say) is this task's error, not the process's end
    serialize(value);
    return { value };
  } catch (error) {
    if (error && error.name === 'RenderFailure')
      return { failure: { status: error.status, message: error.message, details: error.details } };
    return { crash: { message: String(error?.message ?? error), stack: error?.stack } };
  }
}
