/**
 * What an artifact refers to, resolved in its own workspace: published charts and diagrams by slug, inline
 * chart specs, image and audio assets, transcripts. Checking answers issues with JSON pointers (and what the
 * caller's services do not cover, embed-scope.ts); resolving renders what the page shows (charts and diagrams
 * come SVG-checked from their services, and a private one only on a private page).
 */

import type { Issue } from '../../../engines/render/render-failure.js';
import { HttpError } from '../../../http/errors.js';
import { SERVICE_NAMES, type ServiceName } from '../../../http/viewer.js';
import type { AssetRecord } from '../../assets/schema.js';
import type { Visibility } from '../collections.js';
import type { Resolved, Word } from './components/resolved.js';
import { type AssetsNamed, scopeIssueOf } from './embed-scope.js';
import type { Reference } from './validate-document.js';

type Latest = {
  latestOf(ws: string, slug: string): Promise<{ version: number; visibility: Visibility } | undefined>;
};

export type ReferenceDeps = {
  assets: { get(ws: string, id: string): Promise<AssetRecord> };
  transcripts: {
    get(
      ws: string,
      id: string,
    ): Promise<{
      audioAssetId: string;
      status: string;
      words: { word: string; start: number; end: number }[];
    }>;
  };
  charts: {
    /** Checks a spec as publishing would, reading the assets it names. */
    check(ws: string, spec: unknown): Promise<unknown>;
    assetsNamed: AssetsNamed;
    embed(
      ws: string,
      slug: string,
    ): Promise<{ light: string; dark: string; label: string; version: number } | undefined>;
    embedSpec(ws: string, spec: unknown): Promise<{ light: string; dark: string }>;
    publications: Latest;
  };
  diagrams: {
    embed(
      ws: string,
      slug: string,
    ): Promise<{ svg: string; styles: string[]; label: string; version: number } | undefined>;
    publications: Latest;
  };
};

const nodeOf = (pointer: string) => pointer.slice(0, pointer.lastIndexOf('/'));
const asset = (deps: ReferenceDeps, ws: string, id: string) => deps.assets.get(ws, id).catch(() => undefined);

/**
 * Every reference the caller's services do not cover (not looked up: a key learns nothing of a kind it cannot
 * read) and every one that does not resolve in the workspace, as issues.
 */
export async function checkReferences(
  deps: ReferenceDeps,
  ws: string,
  references: Reference[],
  services: readonly ServiceName[] = SERVICE_NAMES,
): Promise<Issue[]> {
  const issues: Issue[] = [];
  for (const ref of references) {
    const outside = scopeIssueOf(ref, services, deps.charts.assetsNamed);
    if (outside) {
      issues.push(outside);
      continue;
    }
    const problem = await problemOf(deps, ws, ref);
    if (typeof problem === 'string') issues.push({ path: ref.pointer, message: problem });
    else if (problem) issues.push(...problem);
  }
  return issues;
}

async function problemOf(
  deps: ReferenceDeps,
  ws: string,
  ref: Reference,
): Promise<string | Issue[] | undefined> {
  switch (ref.kind) {
    case 'chart':
      return (await deps.charts.publications.latestOf(ws, ref.slug))
        ? undefined
        : `no chart "${ref.slug}" in this workspace (publish it first, or give an inline "spec")`;
    case 'diagram':
      return (await deps.diagrams.publications.latestOf(ws, ref.slug))
        ? undefined
        : `no diagram "${ref.slug}" in this workspace`;
    case 'inline-chart':
      try {
        await deps.charts.check(ws, ref.spec);
        return undefined;
      } catch (error) {
        if (!(error instanceof HttpError) || error.status >= 500) throw error;
        const inner = (error.details.issues as Issue[] | undefined) ?? [{ path: '', message: error.message }];
        return inner.map((i) => ({ path: `${ref.pointer}${i.path}`, message: i.message }));
      }
    case 'image':
    case 'audio': {
      const found = await asset(deps, ws, ref.asset);
      if (!found) return `no asset ${ref.asset} in this workspace`;
      const ok =
        ref.kind === 'image' ? found.type === 'image' : found.type === 'audio' || found.type === 'video';
      return ok
        ? undefined
        : `asset ${ref.asset} is ${found.type === 'image' || found.type === 'audio' ? 'an' : 'a'} ${found.type}, not ${ref.kind === 'image' ? 'an image' : 'audio'}`;
    }
    case 'transcript': {
      const transcript = await deps.transcripts.get(ws, ref.transcript).catch(() => undefined);
      if (!transcript) return `no transcript ${ref.transcript} in this workspace`;
      if (transcript.audioAssetId !== ref.asset)
        return `transcript ${ref.transcript} is of another recording than ${ref.asset}`;
      return undefined;
    }
  }
}

/**
 * The page's embedded charts and diagrams as its render is keyed: each one's latest version and visibility,
 * read once, so what the render shows and the key it is cached under agree.
 */
export type Embeds = Map<string, { version: number; visibility: Visibility } | undefined>;

const embedKey = (ref: { kind: 'chart' | 'diagram'; slug: string }) => `${ref.kind}:${ref.slug}`;

export async function embedsOf(deps: ReferenceDeps, ws: string, references: Reference[]): Promise<Embeds> {
  const embeds: Embeds = new Map();
  await Promise.all(
    references.map(async (ref) => {
      if (ref.kind !== 'chart' && ref.kind !== 'diagram') return;
      const item = await deps[`${ref.kind}s`].publications.latestOf(ws, ref.slug);
      embeds.set(embedKey(ref), item && { version: item.version, visibility: item.visibility });
    }),
  );
  return embeds;
}

/** A key that changes when anything the page shows changes: the embeds' versions and visibility. */
export const dependencyKey = (embeds: Embeds): string =>
  [...embeds]
    .map(([key, item]) => `${key}@${item ? `${item.version}:${item.visibility}` : 0}`)
    .sort()
    .join(',');

/** Whose page it is: a private page is its owner's alone; any other page is the same for everyone. */
export type Audience = { embeds: Embeds; privatePage: boolean };

/** What the page shows for each reference, by component pointer; what cannot be shown says why. */
export async function resolveReferences(
  deps: ReferenceDeps,
  ws: string,
  references: Reference[],
  origin: string,
  audience: Audience,
): Promise<Resolved> {
  const resolved: Resolved = { charts: {}, diagrams: {}, images: {}, audio: {} };
  await Promise.all(references.map((ref) => resolveOne(deps, ws, ref, origin, audience, resolved)));
  return resolved;
}

/**
 * Why an embedded chart or diagram is not shown, or undefined when it is: gone, or private on a page that
 * others can open (a private chart stays private wherever it is embedded; docs/publishing.md, "Embeds").
 */
function withheld(ref: { kind: 'chart' | 'diagram'; slug: string }, { embeds, privatePage }: Audience) {
  const item = embeds.get(embedKey(ref));
  if (!item) return `The ${ref.kind} "${ref.slug}" is no longer available.`;
  if (item.visibility === 'private' && !privatePage)
    return `This ${ref.kind} is private, so it is not shown on this page.`;
  return undefined;
}

async function resolveOne(
  deps: ReferenceDeps,
  ws: string,
  ref: Reference,
  origin: string,
  audience: Audience,
  into: Resolved,
) {
  const at = nodeOf(ref.pointer);
  switch (ref.kind) {
    case 'chart': {
      const error = withheld(ref, audience);
      into.charts[at] = (!error && (await deps.charts.embed(ws, ref.slug))) || {
        error: error ?? `The chart "${ref.slug}" is no longer available.`,
      };
      return;
    }
    case 'inline-chart':
      into.charts[at] = await deps.charts
        .embedSpec(ws, ref.spec)
        .catch((e: Error) => ({ error: `This chart could not be drawn: ${e.message}` }));
      return;
    case 'diagram': {
      const error = withheld(ref, audience);
      into.diagrams[at] = (!error && (await deps.diagrams.embed(ws, ref.slug))) || {
        error: error ?? `The diagram "${ref.slug}" is no longer available.`,
      };
      return;
    }
    case 'image': {
      const found = await asset(deps, ws, ref.asset);
      if (found?.type === 'image')
        into.images[at] = {
          src: `${origin}/img/large/${found.key}`,
          srcSet: `${origin}/img/small/${found.key} 640w, ${origin}/img/medium/${found.key} 1280w, ${origin}/img/large/${found.key} 2048w`,
          ...(found.width && found.height ? { width: found.width, height: found.height } : {}),
        };
      return;
    }
    case 'audio': {
      const found = await asset(deps, ws, ref.asset);
      if (found && (found.type === 'audio' || found.type === 'video'))
        into.audio[at] = { ...into.audio[at], src: `${origin}/audio/${found.key}` };
      return;
    }
    case 'transcript': {
      const transcript = await deps.transcripts.get(ws, ref.transcript).catch(() => undefined);
      if (!transcript || transcript.audioAssetId !== ref.asset) return;
      const words: Word[] = transcript.words
        .map((w) => ({ text: w.word.trim(), start: w.start, end: w.end }))
        .filter((w) => w.text);
      into.audio[at] = { ...into.audio[at], src: into.audio[at]?.src ?? '', words };
      return;
    }
  }
}
