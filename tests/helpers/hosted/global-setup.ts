// vitest globalSetup: hands every test worker one state directory for the hosted services (PostgreSQL, Swift).
// Nothing starts here: the first test that needs them starts them (services.ts), so a run without hosted tests
// pays nothing; the teardown stops whatever was started.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { stopPostgresAt } from '../../../scripts/hosted/postgres.js';
import { stopSwiftAt } from '../../../scripts/hosted/swift.js';
import type { ServiceState } from './services.js';

declare module 'vitest' {
  export interface ProvidedContext {
    hostedStateDir: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = await mkdtemp(join(tmpdir(), 'folio-hosted-state-'));
  project.provide('hostedStateDir', dir);
  return async () => {
    const state = await readFile(join(dir, 'services.json'), 'utf8').then(
      (t) => JSON.parse(t) as ServiceState,
      () => undefined,
    );
    if (state) {
      await stopPostgresAt(state.postgres.dir);
      await stopSwiftAt(state.swift.dir, state.swift.pids);
    }
    await rm(dir, { recursive: true, force: true });
  };
}
