export type TaskAnswer = {
  value?: unknown;
  failure?: { status: number; message: string; details?: Record<string, unknown> };
  crash?: { message: string; stack?: string };
};

export function yieldToServer(): void;

export function taskRunner(
  tasks: Record<string, (input: never) => unknown>,
): (request: { task: string; input: unknown }) => Promise<TaskAnswer>;
