/**
 * Charts: publishing rules for Vega-Lite documents. A chart is rendered before it is stored, so an invalid
 * or unrenderable one never is; data comes inline or from the workspace's own CSV/JSON assets, read here
 * and handed to the worker (the renderer itself loads nothing), and only for a caller with the assets service.
 */
import { text } from 'node:stream/consumers';
import type { RenderCache } from '../../../engines/render/render-cache.js';
import type { RenderPool } from '../../../engines/render/render-pool.js';
import { badRequest, payloadTooLarge } from '../../../http/errors.js';
import { SERVICE_NAMES, type ServiceName, type Viewer } from '../../../http/viewer.js';
import type { Store } from '../../../store/types.js';
import type { AssetService } from '../../assets/service.js';
import { pageAddress, pageMeta } from '../pages/page-parts.js';
import { rendered } from '../pages/serve-rendered.js';
import { createPublications, type Found } from '../versions/publication-model.js';
import { type AssetRef, checkChartSpec } from './chart-safety.js';
import type { ChartTheme } from './chart-theme.js';
import { assertAssetsInScope } from './data-scope.js';
import { renderChartPage } from './page.js';
import type { ChartAsset, ChartRenderInput, ChartRenderOutput } from './render-chart.js';
import { chartRuntime, RUNTIME_PATH } from './runtime-bundle.js';
import type { PublishChartBody, UpdateChartBody } from './schema.js';

export type ChartServiceDeps = {
  store: Store;
  pool: RenderPool;
  cache: RenderCache;
  assets: Pick<AssetService, 'get' | 'bytes'>;
  workspaces: { get(id: string): Promise<{ ownerId: string } | undefined> };
};

/** Bytes of one data asset a chart may read. */
export const MAX_ASSET_DATA_BYTES = 64 << 20;

/**
 * How a spec's data assets are read: for whom (`services`: a key's own, a session every one), and what an asset
 * this workspace cannot give reads as (`missing: 'empty'`: no rows, instead of refusing the chart).
 */
type Reading = { services?: readonly ServiceName[]; missing?: 'refuse' | 'empty' };

export function createChartService({ store, pool, cache, assets, workspaces }: ChartServiceDeps) {
  const publications = createPublications({ store, kind: 'charts', workspaces });

  /**
   * Safety and schema checks in a worker, then whether the caller may read assets at all (before any is looked
   * up, data-scope.ts), then the named assets' bytes from this workspace.
   */
  async function prepare(
    workspaceId: string,
    spec: unknown,
    { services = SERVICE_NAMES, missing = 'refuse' }: Reading = {},
  ) {
    const { assets: refs } = await pool.run<{ assets: AssetRef[] }>('charts.check', spec);
    assertAssetsInScope(refs, services);
    const data: Record<string, ChartAsset> = {};
    for (const ref of refs)
      data[ref.assetId] ??= await readAsset(workspaceId, ref).catch((error) => {
        if (missing === 'refuse') throw error;
        return { text: '', format: 'csv' as const };
      });
    return data;
  }

  async function readAsset(workspaceId: string, { assetId, pointer }: AssetRef): Promise<ChartAsset> {
    const record = await assets.get(workspaceId, assetId).catch(() => undefined);
    const format = record && dataFormat(record);
    if (!record || !format)
      throw badRequest(`No CSV or JSON asset ${assetId} in this workspace`, {
        issues: [{ path: pointer, message: `no CSV or JSON asset ${assetId} in this workspace` }],
      });
    if (record.size > MAX_ASSET_DATA_BYTES)
      throw payloadTooLarge(
        `Asset ${assetId} has ${record.size} bytes; a chart reads at most ${MAX_ASSET_DATA_BYTES}`,
      );
    const stream = await assets.bytes(workspaceId, assetId);
    if (!stream) throw badRequest(`Asset ${assetId} has no bytes`);
    return { text: await text(stream), format };
  }

  const render = (input: ChartRenderInput) => pool.run<ChartRenderOutput>('charts.render', input);

  async function checked(workspaceId: string, spec: unknown, reading?: Reading) {
    const data = await prepare(workspaceId, spec, reading);
    const out = await render({ spec, assets: data });
    return { width: out.width, height: out.height, rows: out.rows };
  }

  async function publish(
    workspaceId: string,
    { spec, ...meta }: PublishChartBody,
    services?: readonly ServiceName[],
  ) {
    const derived = await checked(workspaceId, spec, { services });
    return publications.create(workspaceId, { ...meta, document: spec, derived });
  }

  async function update(
    workspaceId: string,
    slug: string,
    { spec, ...meta }: UpdateChartBody,
    services?: readonly ServiceName[],
  ) {
    const derived = await checked(workspaceId, spec, { services });
    return publications.update(workspaceId, slug, { ...meta, document: spec, derived });
  }

  type PreviewInput = { spec: unknown; theme: ChartTheme; scale: number };
  async function preview(workspaceId: string, input: PreviewInput, services?: readonly ServiceName[]) {
    const data = await prepare(workspaceId, input.spec, { services });
    return render({
      spec: input.spec,
      assets: data,
      svg: { theme: input.theme },
      png: { theme: input.theme, scale: input.scale },
    });
  }

  const keyOf = ({ item, version }: Found, output: string) =>
    `charts:${item.id}@${version.version}:${output}`;

  /** Renders one stored version; its asset data is read again (assets are immutable; a deleted one fails). */
  async function renderStored(found: Found, input: Omit<ChartRenderInput, 'spec' | 'assets'>) {
    const spec = found.version.document;
    return render({ spec, assets: await prepare(found.workspaceId, spec), ...input });
  }

  const svgOf = (found: Found, theme: ChartTheme) =>
    cache.get(keyOf(found, `svg-${theme}`), async () => {
      const out = await renderStored(found, { svg: { theme, sanitize: true } });
      return rendered(out.svg!, 'image/svg+xml; charset=utf-8');
    });

  const pngOf = (found: Found, theme: ChartTheme) =>
    cache.get(keyOf(found, `png-${theme}`), async () => {
      const out = await renderStored(found, { png: { theme, scale: 2, fit: true } });
      return {
        ...rendered(Buffer.from(out.png!.bytes), 'image/png'),
        width: out.png!.width,
        height: out.png!.height,
      };
    });

  async function pageOf(found: Found, origin: string) {
    return cache.get(keyOf(found, `page ${found.item.visibility} ${origin}`), async () => {
      const [light, dark, png, runtime] = await Promise.all([
        svgOf(found, 'light'),
        svgOf(found, 'dark'),
        pngOf(found, 'light'),
        chartRuntime(),
      ]);
      const specs = (await renderStored(found, { page: true })).page!;
      const address = pageAddress(found, origin, 'c');
      const page = renderChartPage({
        found,
        staticSvg: { light: light.body.toString(), dark: dark.body.toString() },
        specs,
        runtimeUrl: `${origin}${RUNTIME_PATH}?v=${runtime.hash}`,
        address,
        meta: pageMeta(found, address, png),
      });
      return { ...rendered(page.html, 'text/html; charset=utf-8'), csp: page.csp };
    });
  }

  /** For an artifact: a chart of this workspace by slug (latest version), light and dark. */
  async function embed(workspaceId: string, slug: string) {
    const item = await publications.latestOf(workspaceId, slug);
    if (!item) return undefined;
    const found = await publications.get(workspaceId, slug);
    const [light, dark] = await Promise.all([svgOf(found, 'light'), svgOf(found, 'dark')]);
    return {
      light: light.body.toString(),
      dark: dark.body.toString(),
      label: found.version.title,
      version: item.version,
    };
  }

  /** For an artifact: an inline spec, checked and rendered like a chart of this workspace. */
  async function embedSpec(workspaceId: string, spec: unknown) {
    const data = await prepare(workspaceId, spec);
    const [light, dark] = await Promise.all(
      (['light', 'dark'] as const).map((theme) =>
        render({ spec, assets: data, svg: { theme, sanitize: true } }),
      ),
    );
    return { light: light.svg!, dark: dark.svg! };
  }

  /**
   * For a version that arrives by sync: checked and rendered as publishing does (expressions guarded too, assets
   * only with the sender's assets service), but data it names that this workspace no longer has reads as empty:
   * an old version may outlive its data.
   */
  const checkSynced = (workspaceId: string, spec: unknown, services?: readonly ServiceName[]) =>
    checked(workspaceId, spec, { services, missing: 'empty' });

  const forPage = publications.forPage;
  const service = {
    publications,
    publish,
    update,
    preview,
    /** Checks a spec as publishing would (for artifacts' validate), rendering nothing. */
    check: (workspaceId: string, spec: unknown) => prepare(workspaceId, spec),
    /** The assets a spec names, from the spec alone (for artifacts' embed rule, which reads none). */
    assetsNamed: (spec: unknown): AssetRef[] => checkChartSpec(spec).assets,
    checkSynced,
    page: async (slug: string, viewer: Viewer, version: number | undefined, origin: string) => {
      const found = await forPage(slug, viewer, version);
      return { found, output: await pageOf(found, origin) };
    },
    svg: async (slug: string, viewer: Viewer, version: number | undefined, theme: ChartTheme) => {
      const found = await forPage(slug, viewer, version);
      return { found, output: await svgOf(found, theme) };
    },
    png: async (slug: string, viewer: Viewer, version: number | undefined, theme: ChartTheme) => {
      const found = await forPage(slug, viewer, version);
      return { found, output: await pngOf(found, theme) };
    },
    embed,
    embedSpec,
    runtime: chartRuntime,
  };
  /**
   * The service as a caller with these services uses it: what it publishes, previews or takes by sync reads
   * assets only for a caller with assets.
   */
  function actingWith(services: readonly ServiceName[]): ChartApi {
    return {
      ...service,
      actingWith,
      publish: (ws: string, body: PublishChartBody) => publish(ws, body, services),
      update: (ws: string, slug: string, body: UpdateChartBody) => update(ws, slug, body, services),
      preview: (ws: string, input: PreviewInput) => preview(ws, input, services),
      checkSynced: (ws: string, spec: unknown) => checkSynced(ws, spec, services),
    };
  }
  return { ...service, actingWith };
}

type ChartApi = ReturnType<typeof createChartService>;

export type ChartService = ReturnType<typeof createChartService>;

function dataFormat(record: { contentType: string; filename: string }): ChartAsset['format'] | undefined {
  const type = record.contentType.toLowerCase();
  const name = record.filename.toLowerCase();
  if (type.includes('json') || name.endsWith('.json')) return 'json';
  if (type.includes('tab-separated') || name.endsWith('.tsv')) return 'tsv';
  if (type.includes('csv') || name.endsWith('.csv')) return 'csv';
  return undefined;
}
