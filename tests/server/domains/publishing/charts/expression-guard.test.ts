// The expression check reads vega's ASTs with vega's meaning: rows, facet parents and signals are data and
// may be read freely; an event's DOM, an item's DOM node, the View and prototypes are refused.
import { describe, expect, it } from 'vitest';
import { renderChart } from '../../../../../server/domains/publishing/charts/render-chart.js';
import { RenderFailure } from '../../../../../server/engines/render/render-failure.js';

const rows = [
  { location: 'Seattle', month: 'Jan', temp: 8 },
  { location: 'Seattle', month: 'Feb', temp: 9 },
  { location: 'New York', month: 'Jan', temp: 1 },
  { location: 'New York', month: 'Feb', temp: 2 },
];
const line = (extra: object) => ({
  data: { values: rows },
  mark: 'line',
  encoding: {
    x: { field: 'month', type: 'ordinal' },
    y: { field: 'temp', type: 'quantitative' },
    color: { field: 'location', type: 'nominal' },
  },
  ...extra,
});

const refusal = (spec: unknown) =>
  renderChart({ spec, svg: {} }).then(
    () => undefined,
    (e: unknown) => e as RenderFailure & { details: { issues: { path: string; message: string }[] } },
  );

describe('chart expressions, read with vega semantics', () => {
  it.each([
    ['a field named location', line({ transform: [{ filter: "datum.location == 'Seattle'" }] })],
    ['a facet (vega reads its parent row as parent[...])', facet()],
    [
      'a param named view',
      line({
        params: [{ name: 'view', value: 2 }],
        transform: [{ calculate: 'view * datum.temp', as: 't2' }],
      }),
    ],
    [
      'a field named target on a row',
      line({ transform: [{ calculate: "datum['target'] || datum.location", as: 't' }] }),
    ],
    [
      "an event's keys and vega's item",
      line({
        params: [
          {
            name: 'p',
            select: { type: 'point', on: 'click', toggle: 'event.shiftKey && event.item.mark.name' },
          },
        ],
      }),
    ],
  ])('renders %s', async (_name, spec) => {
    const out = await renderChart({ spec, svg: {} });
    expect(out.svg).toContain('<svg');
  });

  it.each([
    ["an event's view", 'event.view.document.cookie', 'event.view'],
    ["an event's target", 'event.target.ownerDocument', 'event.target'],
    ["a touch's target", 'event.touches[0].target', 'event.target'],
    ['an event member named at run time', "event['vi' + 'ew']", 'event[…]'],
    ["an item's DOM node", 'item()._svg', '_svg'],
    ['an item member named at run time', "item()['_s' + 'vg']", 'item()[…]'],
    ['a row that is an item, to its DOM', 'datum.datum._svg.ownerDocument', '_svg'],
    ['the View', 'view()', 'view()'],
    ['a prototype', 'datum.__proto__', '__proto__'],
    ['a constructor by literal key', "[]['constructor']", 'constructor'],
  ])('refuses %s with a 400 naming it', async (_name, expr, named) => {
    const failure = await refusal(line({ params: [{ name: 'p', expr }] }));
    expect(failure).toBeInstanceOf(RenderFailure);
    expect(failure!.status).toBe(400);
    expect(failure!.message).toContain(`(${named})`);
    expect(failure!.details.issues[0].path).toBe('/params/0/expr');
  });
});

function facet() {
  return {
    data: { values: rows },
    facet: { field: 'location', type: 'nominal' },
    spec: {
      mark: 'bar',
      encoding: { x: { field: 'month', type: 'ordinal' }, y: { field: 'temp', type: 'quantitative' } },
    },
  };
}
