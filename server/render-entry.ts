// The prebuilt render processes' entry (`npm run build:server` bundles it into dist/server/render-worker.mjs):
// every render task module compiled in, so a render process needs neither tsx nor the TypeScript sources. A checkout
// runs server/engines/render/render-worker.mjs instead, which loads the same modules through tsx.
import { renderTasks as artifacts } from './domains/publishing/artifacts/render-tasks.js';
import { renderTasks as charts } from './domains/publishing/charts/render-tasks.js';
import { renderTasks as diagrams } from './domains/publishing/diagrams/render-tasks.js';
import { taskRunner, yieldToServer } from './engines/render/task-runner.mjs';

yieldToServer();

export default taskRunner({ ...diagrams, ...charts, ...artifacts });
