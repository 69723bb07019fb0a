/** The URL if it may be linked to from a page (http, https, mailto, or an in-page #anchor), else undefined. */
export function safeHref(value: string): string | undefined {
  if (/^#[\w-]*$/.test(value)) return value;
  try {
    const url = new URL(value);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}
