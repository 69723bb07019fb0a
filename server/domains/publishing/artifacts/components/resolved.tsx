/**
 * What the page needs besides the document, by component pointer: rendered charts and diagrams (SVG the
 * server produced and checked), image and audio URLs, transcript words. The service resolves these in the
 * workspace; components only read them, so the same components render the page and a preview.
 */
import { createContext, useContext } from 'react';

export type Word = { text: string; start: number; end: number };

export type Resolved = {
  charts: Record<string, { light: string; dark: string; label?: string } | { error: string }>;
  diagrams: Record<
    string,
    { svg: string; label?: string; styles: string[]; width?: number } | { error: string }
  >;
  images: Record<string, { src: string; srcSet?: string; width?: number; height?: number }>;
  audio: Record<string, { src: string; words?: Word[] }>;
};

export const emptyResolved = (): Resolved => ({ charts: {}, diagrams: {}, images: {}, audio: {} });

export const ResolvedContext = createContext<Resolved>(emptyResolved());
export const useResolved = () => useContext(ResolvedContext);

/** Markup the server made (SVG from vega or a checked diagram), never text an author wrote. */
export function ServerSvg({ svg, className, label }: { svg: string; className: string; label?: string }) {
  return (
    <div
      className={className}
      role="img"
      aria-label={label}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: SVG the server rendered and passed through the SVG sanitizer
      dangerouslySetInnerHTML={{ __html: svg }}
    />
  );
}

export function Missing({ what }: { what: string }) {
  return <p className="fo-missing">{what}</p>;
}
