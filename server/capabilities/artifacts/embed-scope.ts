/**
 * What an artifact may embed for its caller: an artifact page shows what it embeds to whoever can open it, so
 * embedding reads the embedded thing, and a key needs that thing's own service (docs/publishing.md, "Embeds").
 */
import { forbidden } from '../../http/errors.js';
import { SERVICE_NAMES, type ServiceName, type Viewer } from '../../http/viewer.js';
import type { Issue } from '../publishing/render-failure.js';
import type { Reference } from './validate-document.js';

/** An issue that only another service on the key can fix. */
export type ScopeIssue = Issue & { service: ServiceName };

const NEEDS: Record<Reference['kind'], { service: ServiceName; what: string } | undefined> = {
  chart: { service: 'charts', what: 'a chart by slug' },
  diagram: { service: 'diagrams', what: 'a diagram by slug' },
  image: { service: 'assets', what: 'an image asset' },
  audio: { service: 'assets', what: 'an audio asset' },
  transcript: { service: 'transcription', what: 'a transcript' },
  'inline-chart': undefined, // its own data; the assets it reads are checked where they are read
};

/** The services a caller acts with: a key its own, a session every one. */
export const servicesOf = (viewer: Viewer): readonly ServiceName[] =>
  viewer.kind === 'key' ? viewer.services : viewer.kind === 'session' ? SERVICE_NAMES : [];

export const scopeIssue = (path: string, service: ServiceName, what: string): ScopeIssue => ({
  path,
  service,
  message: `embedding ${what} needs the ${service} service, which this API key is not enabled for`,
});

/** The issue when the caller lacks the service `ref` reads, else undefined. */
export function scopeIssueOf(ref: Reference, services: readonly ServiceName[]): ScopeIssue | undefined {
  const needs = NEEDS[ref.kind];
  return needs && !services.includes(needs.service)
    ? scopeIssue(ref.pointer, needs.service, needs.what)
    : undefined;
}

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
