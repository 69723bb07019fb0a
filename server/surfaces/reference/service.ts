/** The reference documents, built per origin on first request and kept: the route table never changes at run time. */
import type { Capability, NamedRoute } from '../capability.js';
import { buildLlmsFullTxt, buildLlmsTxt } from './llms-txt.js';
import { buildOpenApi, openApiPath } from './openapi.js';

export function createReferenceService({
  capabilities,
  routes,
  version,
}: {
  capabilities: Capability[];
  routes: NamedRoute[];
  version: string;
}) {
  const cache = new Map<string, unknown>();
  const memo = <T>(key: string, build: () => T): T => {
    if (!cache.has(key)) cache.set(key, build());
    return cache.get(key) as T;
  };
  const openapi = (origin: string) => memo(`openapi ${origin}`, () => buildOpenApi(routes, origin, version));
  return {
    openapi,
    llms: (origin: string) => memo(`llms ${origin}`, () => buildLlmsTxt(capabilities, routes, origin)),
    llmsFull: (origin: string) =>
      memo(`full ${origin}`, () =>
        buildLlmsFullTxt(capabilities, routes, origin, openapi(origin) as never, openApiPath),
      ),
  };
}

export type ReferenceService = ReturnType<typeof createReferenceService>;
