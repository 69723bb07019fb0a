// Reads docs/security.md, "What a key can do, by service", as service-capabilities.test.ts checks it: the table's
// rows by service, and the endpoints (`METHOD /path`) each of its lists names.
import { readFileSync } from 'node:fs';

export type ServiceRow = { service: string; rest: string; mcp: string; sync: string };

const HEADING = '## What a key can do, by service';

/** The section's text, from its heading to the next heading of its level. */
export function keySection(
  doc = readFileSync(new URL('../../../docs/security.md', import.meta.url), 'utf8'),
) {
  const start = doc.indexOf(`${HEADING}\n`);
  if (start === -1) throw new Error(`docs/security.md has no "${HEADING}" section`);
  const rest = doc.slice(start + HEADING.length);
  const end = rest.search(/\n## /);
  return end === -1 ? rest : rest.slice(0, end);
}

/** The table's rows whose first cell is a service in backticks. */
export function serviceRows(section: string): ServiceRow[] {
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [service, rest, mcp, sync] = line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
      return { service: ticked(service)[0], rest, mcp, sync };
    });
}

/** The text of a `### heading` inside the section, up to the next heading. */
export function subsection(section: string, heading: string): string {
  const start = section.indexOf(`### ${heading}\n`);
  if (start === -1) throw new Error(`The section has no "### ${heading}"`);
  const rest = section.slice(start + heading.length + 5);
  const end = rest.search(/\n#{2,3} /);
  return end === -1 ? rest : rest.slice(0, end);
}

/** Everything written in backticks. */
export const ticked = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

/** Every `METHOD /path` in backticks, as `METHOD /path`. */
export const endpointsIn = (text: string) =>
  ticked(text).filter((t) => /^(GET|POST|PUT|PATCH|DELETE|OPTIONS) \/\S*$/.test(t));

/** API paths in backticks (`/api/...`, `/v1/...`), which a REST cell names as the routes it covers. */
export const apiPathsIn = (text: string) => ticked(text).filter((t) => /^\/(api|v1)\/\S+$/.test(t));

/** Tool names or patterns in backticks (`assets_*`, `realtime_create_session`). */
export const toolPatternsIn = (text: string) => ticked(text).filter((t) => /^[a-z]+(_[a-z*]+)+$/.test(t));

/** Whether `path` is `prefix` or lies under it, segment by segment. */
export const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** Whether a tool name fits a pattern where `*` stands for any run of characters. */
export const fitsPattern = (name: string, pattern: string) =>
  new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`).test(name);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
