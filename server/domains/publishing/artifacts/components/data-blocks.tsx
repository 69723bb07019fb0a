/** metric, table, chart, diagram. Numbers are formatted in one fixed locale so a page renders the same everywhere. */
import { Missing, ServerSvg, useResolved } from './resolved.js';

const LOCALE = 'en-US';
const number = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 2 });

type MetricProps = {
  label: string;
  value: string | number;
  unit?: string;
  delta?: number;
  deltaLabel?: string;
  goodWhen?: 'up' | 'down';
  caption?: string;
};

export function Metric({ label, value, unit, delta, deltaLabel, goodWhen = 'up', caption }: MetricProps) {
  const trend = delta === undefined ? undefined : delta > 0 ? 'up' : delta < 0 ? 'down' : 'flat';
  const good = trend === 'flat' || trend === undefined ? 'neutral' : trend === goodWhen ? 'good' : 'bad';
  const arrow = trend === 'up' ? '▲' : trend === 'down' ? '▼' : '■';
  return (
    <div className="fo-metric">
      <p className="fo-metric-label">{label}</p>
      <p className="fo-metric-value">
        {typeof value === 'number' ? number.format(value) : value}
        {unit && <span className="fo-metric-unit">{unit}</span>}
      </p>
      {delta !== undefined && (
        <p className={`fo-metric-delta fo-${good}`}>
          <span aria-hidden="true">{arrow}</span> {delta > 0 ? '+' : ''}
          {number.format(delta)}
          {deltaLabel ? ` ${deltaLabel}` : ''}
        </p>
      )}
      {caption && <p className="fo-metric-caption">{caption}</p>}
    </div>
  );
}

type Column = {
  key: string;
  label?: string;
  align?: 'left' | 'center' | 'right';
  format?: 'text' | 'number' | 'percent' | 'currency' | 'date';
};
type Cell = string | number | boolean | null | undefined;

function formatCell(value: Cell, column: Column, currency: string): string {
  if (value === null || value === undefined) return '—';
  if (typeof value !== 'number') return String(value);
  switch (column.format) {
    case 'percent':
      return new Intl.NumberFormat(LOCALE, { style: 'percent', maximumFractionDigits: 1 }).format(value);
    case 'currency':
      return new Intl.NumberFormat(LOCALE, { style: 'currency', currency, maximumFractionDigits: 0 }).format(
        value,
      );
    default:
      return number.format(value);
  }
}

type TableProps = {
  columns: Column[];
  rows: Record<string, Cell>[];
  sortable?: boolean;
  caption?: string;
  currency?: string;
};

export function Table({ columns, rows, sortable = true, caption, currency = 'USD' }: TableProps) {
  const numeric = (c: Column) =>
    c.format === 'number' ||
    c.format === 'percent' ||
    c.format === 'currency' ||
    rows.every((r) => typeof r[c.key] === 'number' || r[c.key] == null);
  return (
    <div className="fo-table-wrap">
      <table className="fo-table" data-sortable={sortable ? '' : undefined}>
        {caption && <caption>{caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) => {
              const align = c.align ?? (numeric(c) ? 'right' : 'left');
              const label = c.label ?? c.key;
              return (
                <th
                  key={c.key}
                  scope="col"
                  className={`fo-align-${align}`}
                  aria-sort={sortable ? 'none' : undefined}
                  data-type={numeric(c) ? 'number' : 'text'}
                >
                  {sortable ? (
                    <button type="button" className="fo-sort">
                      {label}
                      <span className="fo-sort-icon" aria-hidden="true" />
                    </button>
                  ) : (
                    label
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity beyond their order
            <tr key={i}>
              {columns.map((c) => (
                <td
                  key={c.key}
                  className={`fo-align-${c.align ?? (numeric(c) ? 'right' : 'left')}`}
                  data-value={typeof row[c.key] === 'number' ? String(row[c.key]) : undefined}
                >
                  {formatCell(row[c.key], c, currency)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Chart({ pointer, caption }: { pointer: string; caption?: string }) {
  const chart = useResolved().charts[pointer];
  return (
    <figure className="fo-figure fo-chart">
      {!chart || 'error' in chart ? (
        <Missing what={chart?.error ?? 'This chart is not available.'} />
      ) : (
        <>
          <ServerSvg
            className="fo-chart-svg fo-only-light"
            svg={chart.light}
            label={chart.label ?? caption}
          />
          <ServerSvg className="fo-chart-svg fo-only-dark" svg={chart.dark} label={chart.label ?? caption} />
        </>
      )}
      {caption && <figcaption>{caption}</figcaption>}
    </figure>
  );
}

export function Diagram({ pointer, caption }: { pointer: string; caption?: string }) {
  const diagram = useResolved().diagrams[pointer];
  return (
    <figure className="fo-figure fo-diagram">
      {!diagram || 'error' in diagram ? (
        <Missing what={diagram?.error ?? 'This diagram is not available.'} />
      ) : (
        // never shrunk below 70 % of its size: its text stays legible, a wide one scrolls
        <div className="fo-scroll">
          <div style={diagram.width ? { minWidth: Math.round(diagram.width * 0.7) } : undefined}>
            <ServerSvg className="fo-diagram-svg" svg={diagram.svg} label={diagram.label ?? caption} />
          </div>
        </div>
      )}
      {caption && <figcaption>{caption}</figcaption>}
    </figure>
  );
}
