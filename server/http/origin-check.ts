// CSRF defence for cookie-authenticated writes (docs/security.md). Cookies are not isolated by port and every
// localhost port is the same site, so SameSite cannot tell our dashboard from another local dev server:
// only an exact match on our own origin can. Key and grant requests carry no ambient authority.
import type { IncomingHttpHeaders } from 'node:http';
import { forbidden } from './errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function checkSessionOrigin(method: string, headers: IncomingHttpHeaders, ownOrigins: string[]): void {
  if (SAFE_METHODS.has(method)) return;
  const origin = headers.origin;
  if (origin !== undefined) {
    if (!ownOrigins.includes(origin))
      throw forbidden('Cross-origin request refused: Origin does not match this server');
    return;
  }
  // No Origin: a non-browser client (curl with a cookie), unless Fetch Metadata says a browser sent it cross-site.
  const site = headers['sec-fetch-site'];
  if (site && site !== 'same-origin' && site !== 'none') throw forbidden('Cross-site request refused');
}

/**
 * Our own origins as this request addressed us. `localhost:P` and `127.0.0.1:P` are different sites
 * (public pages may be served from one, the dashboard from the other), so a write to one from the other is
 * cross-origin too: only the exact scheme, host and port the request went to passes.
 */
export function addressedOrigins(hostHeader: string | undefined, ownOrigins: string[]): string[] {
  const host = (hostHeader ?? '').toLowerCase();
  return ownOrigins.filter((origin) => new URL(origin).host === host);
}
