// Every JSON answer a test receives through `as()` is checked against the response schema of the route that made
// it, so the schemas (and the OpenAPI document built from them) cannot drift from what the server sends.
import { match } from 'path-to-regexp';
import { namedRoutes } from '../../server/surfaces/route-table.js';

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
  const body = await res.clone().json();
  const parsed = found.route.response!.safeParse(body);
  if (!parsed.success)
    throw new Error(
      `${method} ${pathname} answered a body that does not fit ${found.name}'s response schema: ${parsed.error.issues
        .map((i) => `${i.path.join('.')}: ${i.message}`)
        .join('; ')}`,
    );
  const extra = undeclared(body, parsed.data, '');
  if (extra.length)
    throw new Error(
      `${method} ${pathname} answered fields ${found.name}'s response schema does not declare: ${extra.join(', ')}`,
    );
}

/** Paths present in what the server sent but dropped by the schema (zod strips keys an object does not declare). */
function undeclared(sent: unknown, kept: unknown, path: string): string[] {
  if (Array.isArray(sent) && Array.isArray(kept))
    return sent.flatMap((item, i) => undeclared(item, kept[i], `${path}[${i}]`)).slice(0, 5);
  if (!isPlainObject(sent) || !isPlainObject(kept)) return [];
  return Object.keys(sent).flatMap((key) =>
    key in kept
      ? undeclared(sent[key], kept[key], path ? `${path}.${key}` : key)
      : [path ? `${path}.${key}` : key],
  );
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
