/**
 * Browser code of the /c/:slug page (bundled by runtime-bundle.ts): the chart as a live vega view with
 * tooltips and the spec's selections, using vega's CSP-safe expression interpreter (the page allows no eval)
 * and a loader that loads nothing. Dark and light follow the viewer's colour scheme.
 */
import { parse, type Spec, View } from 'vega';
import { expressionInterpreter } from 'vega-interpreter';
import { Handler } from 'vega-tooltip';

type Specs = { light: Spec; dark: Spec };

const refuse = async () => {
  throw new Error('charts load nothing');
};
const loader = { load: refuse, sanitize: refuse, http: refuse, file: refuse };

/** The dark spec travels without its rows; they are the light spec's, by dataset name. */
function withRows(dark: Spec, light: Spec): Spec {
  const rows = new Map((light.data ?? []).map((d) => [d.name, 'values' in d ? d.values : undefined]));
  return {
    ...dark,
    data: dark.data?.map((d) => ('values' in d ? { ...d, values: rows.get(d.name) } : d)),
  } as Spec;
}

async function main() {
  const specs = JSON.parse(document.getElementById('fo-chart-spec')?.textContent ?? '{}') as Specs;
  const container = document.getElementById('fo-chart') as HTMLElement;
  const scheme = window.matchMedia('(prefers-color-scheme: dark)');
  const tooltip = new Handler({ disableDefaultStyle: true });
  let view: View | undefined;
  async function render() {
    const spec = scheme.matches ? withRows(specs.dark, specs.light) : specs.light;
    view?.finalize();
    container.replaceChildren();
    view = new View(parse(spec, undefined, { ast: true }), {
      expr: expressionInterpreter,
      renderer: 'svg',
      container,
      hover: true,
      loader: loader as never,
      tooltip: tooltip.call,
    });
    await view.runAsync();
    document.body.classList.add('fo-live');
  }
  scheme.addEventListener('change', () => void render());
  await render();
}

main().catch((error) => {
  // the static chart stays in place; say why the live one is missing
  console.error('chart runtime:', error);
});
