// A small horizontal bar chart (usage per capability): bars are proportional, labels and values stay text.
export function BarChart({
  label,
  rows,
  format,
}: {
  label: string;
  rows: { name: string; value: number; detail?: string }[];
  format: (v: number) => string;
}) {
  const max = Math.max(1, ...rows.map((r) => r.value));
  return (
    <figure className="bar-chart" aria-label={label}>
      <table className="bar-chart-table">
        <caption className="visually-hidden">{label}</caption>
        <tbody>
          {rows.map((row) => (
            <tr key={row.name}>
              <th scope="row" className="bar-chart-name">
                {row.name}
              </th>
              <td className="bar-chart-bar">
                <span
                  className="bar-chart-fill"
                  style={{ width: `${Math.max(row.value ? 2 : 0, (row.value / max) * 100)}%` }}
                />
              </td>
              <td className="bar-chart-value">
                {format(row.value)}
                {row.detail && <span className="muted"> · {row.detail}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
