// The view's script, run by the host inside its sandboxed frame (bundled by view-html.ts; never loaded by Folio's
// own pages). It waits for the tool result the host hands over, and shows the rendered chart or diagram: the
// preview a preview tool answered, or, for a published item, the preview it asks the server for through the host.
// Everything it shows is text (textContent) or an image from a data: URL, where no script can run.
import { App } from '@modelcontextprotocol/ext-apps';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

type Config = { kind: 'chart' | 'diagram' | 'artifact'; previewTool: string | null };
type Json = Record<string, unknown>;
type Picture = { src: string; width?: number; height?: number };

const config = JSON.parse(document.getElementById('fo-view-config')?.textContent ?? '{}') as Config;
const main = document.getElementById('fo-view') as HTMLElement;
const app = new App({ name: 'Folio view', version: '1.0.0' });

app.ontoolresult = (result) => {
  show(result as CallToolResult).catch((error: unknown) =>
    status(`Could not show it: ${String(error)}`, true),
  );
};
app.ontoolcancelled = () => status('Cancelled');
app.onhostcontextchanged = (context) => applyTheme(context.theme);
app
  .connect()
  .then(() => applyTheme(app.getHostContext()?.theme))
  .catch((error: unknown) => status(`Could not reach the host: ${String(error)}`, true));

async function show(result: CallToolResult): Promise<void> {
  if (result.isError) return status(textOf(result) || 'The tool failed', true);
  const data = (result.structuredContent ?? {}) as Json;
  const args = previewArguments(data);
  let picture = pictureOf(data, !args);
  if (!picture && args && config.previewTool) {
    status('Rendering…');
    const preview = await app.callServerTool({ name: config.previewTool, arguments: args });
    if (preview.isError) return status(textOf(preview as CallToolResult) || 'Could not render it', true);
    picture = pictureOf((preview.structuredContent ?? {}) as Json, true);
  }
  render(data, picture);
}

/** What the preview tool needs to render a published document: the document itself. */
function previewArguments(data: Json): Json | undefined {
  if (config.kind === 'chart' && data.spec) return { spec: data.spec };
  if (config.kind === 'diagram' && typeof data.svg === 'string') return { svg: data.svg };
  if (config.kind === 'artifact' && data.document) return { document: data.document };
  return undefined;
}

/** A PNG data URL first; an SVG only from a preview (a published diagram's `svg` is its unthemed document). */
function pictureOf(data: Json, svgIsRendered: boolean): Picture | undefined {
  // shown at the drawing's own size (the PNG may be rendered at 2× for sharpness)
  const size = { width: num(data.width), height: num(data.height) };
  if (typeof data.png === 'string' && data.png.startsWith('data:image/png;base64,'))
    return { src: data.png, ...size };
  if (svgIsRendered && typeof data.svg === 'string' && /^\s*(<\?xml[^>]*>\s*)?<svg[\s>]/.test(data.svg))
    return { src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(data.svg)}`, ...size };
  return undefined;
}

function render(data: Json, picture: Picture | undefined): void {
  main.replaceChildren();
  if (typeof data.title === 'string') main.append(element('h1', data.title));
  if (picture) {
    const figure = document.createElement('figure');
    const img = document.createElement('img');
    img.alt = typeof data.title === 'string' ? data.title : `The ${config.kind}`;
    if (picture.width) img.width = picture.width;
    if (picture.height) img.height = picture.height;
    img.src = picture.src;
    img.id = 'fo-picture';
    figure.append(img);
    main.append(figure);
  } else if (data.urls)
    main.append(element('p', `The ${config.kind} is ready: open its page to see it.`, 'fo-status'));
  const footer = document.createElement('footer');
  const version = num(data.version);
  footer.append(
    element('span', version ? `Version ${version}${data.visibility ? ` · ${data.visibility}` : ''}` : ''),
  );
  const page = (data.urls as Json | undefined)?.page;
  if (typeof page === 'string' && /^https?:\/\//.test(page)) {
    const open = element('button', 'Open page');
    open.addEventListener('click', () => void app.openLink({ url: page }));
    footer.append(open);
  }
  main.append(footer);
  main.dataset.state = picture ? 'rendered' : 'linked';
}

function status(message: string, error = false): void {
  main.replaceChildren(element('p', message, error ? 'fo-error' : 'fo-status'));
  main.dataset.state = error ? 'error' : 'waiting';
}

function element(tag: string, text: string, className?: string): HTMLElement {
  const node = document.createElement(tag);
  node.textContent = text;
  if (className) node.className = className;
  return node;
}

function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join(' ');
}

function applyTheme(theme: string | undefined): void {
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
}

const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
