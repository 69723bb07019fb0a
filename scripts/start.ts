// `npm start`: builds what is missing or stale (the Whisper worker, the dashboard), then opens the Electron app
// where Electron is installed, or runs the server headless and says so (docs/headless.md).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { readCommandLine } from '../server/cli/command-line.js';
import { startCommand } from '../server/cli/serve-command.js';
import { buildServer } from './lib/build-server.js';
import { bundleShell } from './lib/bundle-shell.js';
import { buildDashboard } from './lib/dashboard-build.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);

function electronBinary(): string | undefined {
  try {
    return require('electron') as string;
  } catch {
    return undefined;
  }
}

function run(command: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => child.kill(signal));
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

// --help, or a flag the server would refuse, answers before minutes of building
if (readCommandLine(startCommand)) await start();

async function start(): Promise<void> {
  await run(process.execPath, [require.resolve('tsx/cli'), 'scripts/build-whisper.ts']);
  const dashboard = await buildDashboard(root);
  if (dashboard.status === 'built') console.log(`dashboard: built in ${(dashboard.ms / 1000).toFixed(1)} s`);
  const electron = electronBinary();
  if (electron) {
    // the shell runs the server bundled, from what build:server makes (server/engines/prebuilt.ts)
    await buildServer(root);
    await bundleShell(root);
    process.exitCode = await run(electron, ['dist/electron/main.js']);
  } else {
    console.log(
      'Electron is not installed on this machine, so Folio starts headless: open the sign-in link below in a browser for the dashboard.',
    );
    process.exitCode = await run(process.execPath, [
      require.resolve('tsx/cli'),
      'server/main.ts',
      ...process.argv.slice(2),
    ]);
  }
}
