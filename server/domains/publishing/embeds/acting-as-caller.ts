/**
 * A route handler that reaches one publishing service as its caller: the service `actingWith` the caller's
 * services, so what it reads on the caller's behalf (an artifact's embeds, a chart's data assets) is only what a
 * key's services cover (docs/security.md, "What a key can do, by service").
 */

import type { RouteDeps } from '../../../deps.js';
import { servicesOf, type Viewer } from '../../../http/viewer.js';

export const actingAsCaller =
  <I extends { viewer: Viewer }, T>(
    name: 'artifacts' | 'charts',
    handler: (input: I, deps: RouteDeps) => T,
  ) =>
  (input: I, deps: RouteDeps): T =>
    handler(input, { ...deps, [name]: deps[name].actingWith(servicesOf(input.viewer)) });
