// Every JSON answer a test receives through `as()` is checked against the response schema of the route that made
// it, so the schemas (and the OpenAPI document built from them) cannot drift from what the server sends.
import { match } from 'path-to-regexp';
import { namedRoutes } from '../../server/capabilities/index.js';

const routes = namedRoutes()
  .filter((r) => r.route.response)
  .map((r) => ({ ...r, matches: match(r.route.path, { decode: decodeURIComponent }) }));

/** Throws when a 2xx JSON body does not fit its route's response schema. */
export async function checkResponse(method: string, url: string, res: Response): Promise<void> {
  if (res.status < 200 || res.status >= 300 || res.status === 204) return;
  if (!res.headers.get('content-type')?.includes('application/json')) return;
  const { pathname } = new URL(url);
  const found = routes.find((r) => r.route.method === method && r.matches(pathname));
  if (!found) return;
  const parsed = found.route.response!.safeParse(await res.clone().json());
  if (!parsed.success)
    throw new Error(
      `${method} ${pathname} answered a body that does not fit ${found.name}'s response schema: ${parsed.error.issues
        .map((i) => `${i.path.join('.')}: ${i.message}`)
        .join('; ')}`,
    );
}
