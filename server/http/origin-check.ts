// CSRF defence for cookie-authenticated writes (DESIGN §4). Cookies are not isolated by port and every
// localhost port is the same site, so SameSite cannot tell our dashboard from another local dev server:
// only an exact match on our own origin can. Key and grant requests carry no ambient authority.
import type { IncomingHttpHeaders } from 'node:http';
import { forbidden } from './errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function checkSessionOrigin(method: string, headers: IncomingHttpHeaders, ownOrigins: string[]): void {
  if (SAFE_METHODS.has(method)) return;
  const origin = headers.origin;
  if (origin !== undefined) {
    if (!ownOrigins.includes(origin)) throw forbidden('Cross-origin request refused: Origin does not match this server');
    return;
  }
  // No Origin: a non-browser client (curl with a cookie), unless Fetch Metadata says a browser sent it cross-site.
  const site = headers['sec-fetch-site'];
  if (site && site !== 'same-origin' && site !== 'none')
    throw forbidden('Cross-site request refused');
}
