// Entry of every render process started from the sources (render-pool.ts): plain JavaScript, so a process starts the
// same under tsx or vitest; it loads the TypeScript task modules named in FOLIO_RENDER_MODULES through tsx. The built
// server's render processes start from dist/server/render-worker.mjs instead (server/render-entry.ts), which has
// them compiled in. Both answer through task-runner.mjs.
import { tsImport } from 'tsx/esm/api';
import { taskRunner, yieldToServer } from './task-runner.mjs';

yieldToServer();

const modules = JSON.parse(process.env.FOLIO_RENDER_MODULES ?? '[]');
const tables = await Promise.all(modules.map((url) => tsImport(url, import.meta.url)));

export default taskRunner(Object.assign({}, ...tables.map((module) => module.renderTasks)));
