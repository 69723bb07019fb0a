// The three published kinds as the lifecycle tests drive them: where they live and a small valid document.
export type KindFixture = {
  kind: 'diagrams' | 'charts' | 'artifacts';
  page: '/d' | '/c' | '/a';
  field: 'svg' | 'spec' | 'document';
  /** A valid document whose content carries `marker`, so a test can tell versions apart. */
  document(marker: string): unknown;
  /** Text of `marker` as it appears in the rendered page. */
  images: { svg: boolean; png: boolean };
  extra?: Record<string, unknown>;
};

export const KINDS: KindFixture[] = [
  {
    kind: 'diagrams',
    page: '/d',
    field: 'svg',
    document: (marker) =>
      `<svg viewBox="0 0 200 60"><rect class="node" x="0" y="0" width="200" height="60" rx="8"/><text class="label" x="100" y="30">${marker}</text></svg>`,
    images: { svg: true, png: true },
    extra: { kind: 'flowchart' },
  },
  {
    kind: 'charts',
    page: '/c',
    field: 'spec',
    document: (marker) => ({
      data: {
        values: [
          { q: marker, r: 3 },
          { q: 'other', r: 5 },
        ],
      },
      mark: 'bar',
      encoding: { x: { field: 'q', type: 'nominal' }, y: { field: 'r', type: 'quantitative' } },
      width: 200,
      height: 120,
    }),
    images: { svg: true, png: true },
  },
  {
    kind: 'artifacts',
    page: '/a',
    field: 'document',
    document: (marker) => ({
      children: [
        { type: 'heading', text: 'Weekly notes', level: 1 },
        { type: 'markdown', text: `This week: ${marker}.` },
      ],
    }),
    images: { svg: false, png: true },
  },
];
