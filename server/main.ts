// Headless entry (docs/headless.md): `npm run serve -- --port <n> --data-dir <dir>` prints the two start-up lines;
// `--print-mcp-config <client>` prints an MCP client's config instead of starting, `--help` the usage.

import nodeModule from 'node:module';
import { readCommandLine } from './cli/command-line.js';
import { serveCommand } from './cli/serve-command.js';
import { configFromProcess } from './config.js';
import { describeFfmpeg } from './engines/whisper/ffmpeg-binary.js';
import { printMcpConfig, takePrintRequest } from './surfaces/mcp/print-config.js';

async function main(): Promise<void> {
  if (!readCommandLine(serveCommand)) return;
  // Node 22.8+ keeps the bytecode of what it compiles in a folder (NODE_COMPILE_CACHE, else the temp folder), and
  // the next start reads it instead of compiling the server's modules again (bench/README.md "Start at any size,
  // third pass").
  nodeModule.enableCompileCache?.();
  const print = takePrintRequest(process.argv.slice(2));
  if (print) {
    process.exitCode = await printMcpConfig(
      print.client,
      configFromProcess(print.rest),
      process.stdout,
      process.stderr,
    );
    return;
  }
  const config = configFromProcess();
  // Loaded only now, so --help and --print-mcp-config answer without loading every service
  const { createServer } = await import('./app.js');
  const server = await createServer(config);
  const { url } = await server.listen();
  // A hosted instance's links point at its public address (the proxy), not at this node.
  const ownerLink = await server.deps.identity.mintSignInLink(
    config.ownerEmail,
    server.config.publicUrl ?? url,
    {
      announce: false,
    },
  );
  console.log(`Folio listening on ${url}`);
  console.log(`Owner sign-in: ${ownerLink}`);
  console.log(`Data: ${config.dataDir}`);
  console.log(`Storage: ${server.deps.store.backend}, node ${server.config.nodeId}`);
  void server.deps.engine.ffmpeg().then(
    (ffmpeg) => console.log(`Audio decoder: ${describeFfmpeg(ffmpeg)}`),
    (error: Error) =>
      console.log(`Audio decoder: none usable, ${error.message.replace(/^could not decode audio: /, '')}`),
  );
  // With a model set up, the worker loads it now (in the background) so this line can name the device it runs on
  void server.deps.engine.engine().then(
    () => {
      const device = server.deps.engine.device();
      if (device)
        console.log(
          `Whisper device: ${device.label}${device.fallback ? ` (GPU not used: ${device.fallback})` : ''}`,
        );
    },
    () => undefined, // no model, or an unusable one: the start-up check above has said so
  );
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  console.error(`Folio could not start: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
