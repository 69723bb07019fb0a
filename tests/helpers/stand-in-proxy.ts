/**
 * A stand-in in front of a real server on 127.0.0.1: `answer` may answer a request itself (an error page, a 503, a
 * wrong shape); whatever it leaves is passed through to `target` untouched. The caller closes `server`.
 */
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function standInProxy(
  target: string,
  answer: (req: IncomingMessage, res: ServerResponse) => boolean,
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (answer(req, res)) return;
    const upstream = request(
      `${target}${req.url}`,
      { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
      (back) => {
        res.writeHead(back.statusCode ?? 502, back.headers);
        back.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
