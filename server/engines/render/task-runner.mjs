// How a render process answers a task, shared by its two entries: render-worker.mjs (a checkout: the task modules
// loaded through tsx) and the prebuilt one (`npm run build:server`: the task modules bundled in). A task's value
// comes back as { value }, a RenderFailure as { failure } (its status kept across the process), anything else as
// { crash }.
import { setPriority } from 'node:os';
import { serialize } from 'node:v8';

/** Renders yield the CPU to the process that answers requests (ignored where the OS refuses). */
export function yieldToServer() {
  try {
    setPriority(10);
  } catch {}
}

/** The process's task function over `tasks`, a table of task name to handler. */
export function taskRunner(tasks) {
  return async function runRenderTask({ task, input }) {
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
  };
}
