/**
 * What an artifact refers to, resolved in its own workspace: published charts and diagrams by slug, inline
 * chart specs, image and audio assets, transcripts. Checking answers issues with JSON pointers; resolving
 * renders what the page shows (charts and diagrams come SVG-checked from their services).
 */
import { HttpError } from '../../http/errors.js';
import type { AssetRecord } from '../assets/schema.js';
import type { Issue } from '../publishing/render-failure.js';
import type { Resolved, Word } from './components/resolved.js';
import type { Reference } from './validate-document.js';

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
    check(ws: string, spec: unknown): Promise<unknown>;
    embed(
      ws: string,
      slug: string,
    ): Promise<{ light: string; dark: string; label: string; version: number } | undefined>;
    embedSpec(ws: string, spec: unknown): Promise<{ light: string; dark: string }>;
    publications: { latestOf(ws: string, slug: string): Promise<{ version: number } | undefined> };
  };
  diagrams: {
    embed(
      ws: string,
      slug: string,
    ): Promise<{ svg: string; styles: string[]; label: string; version: number } | undefined>;
    publications: { latestOf(ws: string, slug: string): Promise<{ version: number } | undefined> };
  };
};

const nodeOf = (pointer: string) => pointer.slice(0, pointer.lastIndexOf('/'));
const asset = (deps: ReferenceDeps, ws: string, id: string) => deps.assets.get(ws, id).catch(() => undefined);

/** Every reference that does not resolve in the workspace, as issues. */
export async function checkReferences(
  deps: ReferenceDeps,
  ws: string,
  references: Reference[],
): Promise<Issue[]> {
  const issues: Issue[] = [];
  for (const ref of references) {
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

/** A key that changes when anything the page shows changes: the embedded charts' and diagrams' versions. */
export async function dependencyKey(
  deps: ReferenceDeps,
  ws: string,
  references: Reference[],
): Promise<string> {
  const parts = await Promise.all(
    references.map(async (ref) => {
      if (ref.kind === 'chart')
        return `c:${ref.slug}@${(await deps.charts.publications.latestOf(ws, ref.slug))?.version ?? 0}`;
      if (ref.kind === 'diagram')
        return `d:${ref.slug}@${(await deps.diagrams.publications.latestOf(ws, ref.slug))?.version ?? 0}`;
      return '';
    }),
  );
  return parts.filter(Boolean).join(',');
}

/** What the page shows for each reference, by component pointer; what cannot be shown says why. */
export async function resolveReferences(
  deps: ReferenceDeps,
  ws: string,
  references: Reference[],
  origin: string,
): Promise<Resolved> {
  const resolved: Resolved = { charts: {}, diagrams: {}, images: {}, audio: {} };
  await Promise.all(references.map((ref) => resolveOne(deps, ws, ref, origin, resolved)));
  return resolved;
}

async function resolveOne(deps: ReferenceDeps, ws: string, ref: Reference, origin: string, into: Resolved) {
  const at = nodeOf(ref.pointer);
  switch (ref.kind) {
    case 'chart':
      into.charts[at] = (await deps.charts.embed(ws, ref.slug)) ?? {
        error: `The chart "${ref.slug}" is no longer available.`,
      };
      return;
    case 'inline-chart':
      into.charts[at] = await deps.charts
        .embedSpec(ws, ref.spec)
        .catch((e: Error) => ({ error: `This chart could not be drawn: ${e.message}` }));
      return;
    case 'diagram':
      into.diagrams[at] = (await deps.diagrams.embed(ws, ref.slug)) ?? {
        error: `The diagram "${ref.slug}" is no longer available.`,
      };
      return;
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
