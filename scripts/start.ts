// `npm start`: the Electron app where Electron is installed; otherwise the headless server (docs/headless.md).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

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

async function bundleShell(): Promise<void> {
  const common = {
    bundle: true,
    platform: 'node' as const,
    packages: 'external' as const,
    logLevel: 'warning' as const,
  };
  await build({
    ...common,
    entryPoints: [`${root}electron/main.ts`],
    format: 'esm',
    outfile: `${root}dist/electron/main.js`,
  });
  await build({
    ...common,
    entryPoints: [`${root}electron/preload.ts`],
    format: 'cjs',
    outfile: `${root}dist/electron/preload.cjs`,
  });
}

await run(process.execPath, [require.resolve('tsx/cli'), 'scripts/build-whisper.ts']);
const electron = electronBinary();
if (electron) {
  await bundleShell();
  process.exitCode = await run(electron, ['dist/electron/main.js']);
} else {
  console.log(
    'Electron is not installed on this machine, so Folio starts headless: open the sign-in link below in a browser.',
  );
  process.exitCode = await run(process.execPath, [
    require.resolve('tsx/cli'),
    'server/main.ts',
    ...process.argv.slice(2),
  ]);
}
