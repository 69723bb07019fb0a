/**
 * What an artifact may embed for its caller: an artifact page shows what it embeds to whoever can open it, so
 * embedding reads the embedded thing, and a key needs that thing's own service (docs/publishing.md, "Embeds").
 */

import type { Issue } from '../../../engines/render/render-failure.js';
import { forbidden } from '../../../http/errors.js';
import type { ServiceName } from '../../../http/viewer.js';
import type { Reference } from './validate-document.js';

/** An issue that only another service on the key can fix. */
export type ScopeIssue = Issue & { service: ServiceName };

const NEEDS: Record<Reference['kind'], { service: ServiceName; what: string } | undefined> = {
  chart: { service: 'charts', what: 'a chart by slug' },
  diagram: { service: 'diagrams', what: 'a diagram by slug' },
  image: { service: 'assets', what: 'an image asset' },
  audio: { service: 'assets', what: 'an audio asset' },
  transcript: { service: 'transcription', what: 'a transcript' },
  'inline-chart': undefined, // its own data, but the assets its spec names need assets (below)
};

/** The assets a chart spec names (`"url": "asset:<id>"`), found in the spec alone: none is looked up. */
export type AssetsNamed = (spec: unknown) => { assetId: string }[];

export const scopeIssue = (path: string, service: ServiceName, what: string): ScopeIssue => ({
  path,
  service,
  message: `embedding ${what} needs the ${service} service, which this API key is not enabled for`,
});

/**
 * The issue when the caller lacks the service `ref` reads, else undefined. Decided from the document alone, before
 * anything it names is looked up, so a key learns nothing of a kind it cannot read (not even whether an id exists).
 */
export function scopeIssueOf(
  ref: Reference,
  services: readonly ServiceName[],
  assetsNamed: AssetsNamed,
): ScopeIssue | undefined {
  if (ref.kind === 'inline-chart') {
    const [read] = services.includes('assets') ? [] : assetsNamed(ref.spec);
    return read && scopeIssue(ref.pointer, 'assets', `a chart that reads asset ${read.assetId}`);
  }
  const needs = NEEDS[ref.kind];
  return needs && !services.includes(needs.service)
    ? scopeIssue(ref.pointer, needs.service, needs.what)
    : undefined;
}

/** Every reference the caller's services do not cover, as scopeIssueOf finds them. */
export const scopeIssuesOf = (
  references: Reference[],
  services: readonly ServiceName[],
  assetsNamed: AssetsNamed,
): ScopeIssue[] => references.flatMap((ref) => scopeIssueOf(ref, services, assetsNamed) ?? []);

export const isScopeIssue = (issue: Issue): issue is ScopeIssue => 'service' in issue;

/** 403 naming the first missing service, as a route outside the key's services answers, with every place. */
export function forbiddenEmbeds(issues: ScopeIssue[], services: readonly ServiceName[]) {
  const [first] = issues;
  return forbidden(
    `This API key is not enabled for the ${first.service} service, so it cannot embed what ${first.path} names`,
    {
      service: first.service,
      enabledServices: [...services],
      issues: issues.map(({ path, message }) => ({ path, message })),
    },
  );
}
