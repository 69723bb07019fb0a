// DNS rebinding defence (docs/security.md): a page on evil.example that resolves its
// name to 127.0.0.1 still sends `Host: evil.example`. Only exact loopback literals and `localhost`
// (plus names the operator configures for a hosted instance) pass; never a prefix or suffix match,
// never a name DNS could re-point. Checked on the raw header: Koa's ctx.host would trust X-Forwarded-Host.
import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import { badRequest, forbidden } from './errors.js';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** `publicOrigin`: a hosted instance's public URL origin; its exact host (name and port) is allowed too. */
export type HostPolicy = { port: () => number; extraHosts: string[]; publicOrigin?: string };

export function isAllowedHost(host: string | undefined, policy: HostPolicy): boolean {
  if (!host) return false;
  if (policy.publicOrigin && host.toLowerCase() === new URL(policy.publicOrigin).host) return true;
  const match = /^([^:\s]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i.exec(host);
  if (!match) return false;
  const name = match[1].toLowerCase();
  if (policy.extraHosts.includes(name)) return true;
  return LOOPBACK_NAMES.includes(name) && match[2] !== undefined && Number(match[2]) === policy.port();
}

/** Origins a browser shows for our own pages: the exact same scheme, host and port. */
export function ownOrigins(policy: HostPolicy): string[] {
  const port = policy.port();
  return [
    ...LOOPBACK_NAMES.map((name) => `http://${name}:${port}`),
    ...policy.extraHosts.flatMap((h) => [`https://${h}`, `http://${h}`]),
    ...(policy.publicOrigin ? [policy.publicOrigin] : []),
  ];
}

export function checkHost(req: IncomingMessage, policy: HostPolicy): void {
  let hostHeaders = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    if (req.rawHeaders[i].toLowerCase() === 'host') hostHeaders++;
  // HTTP/1.1 requires a Host (RFC 9112 §3.2); Node's own check would answer an empty 400, so app.ts turns it off
  // and the request is refused here like any other. HTTP/1.0 may omit it, but is then refused as any unknown host.
  if (hostHeaders === 0 && req.httpVersion !== '1.0')
    throw badRequest('The Host header is missing: HTTP/1.1 requires it (send Host: 127.0.0.1:<port>)');
  if (hostHeaders !== 1 || !isAllowedHost(req.headers.host, policy))
    throw forbidden('Host not allowed: use http://127.0.0.1 or http://localhost');
  if (!req.url?.startsWith('/')) throw forbidden('Only origin-form request targets are accepted');
}

export function hostGuard(policy: HostPolicy): Middleware {
  return async function hostGuardMiddleware(ctx, next) {
    checkHost(ctx.req, policy);
    await next();
  };
}
