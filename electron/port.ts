import { createServer } from 'node:net';

/** docs/headless.md: 4780 when free (agents keep it in their config), otherwise any free port. */
export async function choosePort(preferred: number, host = '127.0.0.1'): Promise<number> {
  return (await isFree(preferred, host)) ? preferred : 0;
}

function isFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
      .once('error', () => resolve(false))
      .once('listening', () => probe.close(() => resolve(true)))
      .listen(port, host);
  });
}
