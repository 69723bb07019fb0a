/** Vega-Lite config for the chart theme, light and dark, in the same palette as the diagram theme. */
import { FONT_STACK } from '../../../engines/render/fonts.js';

export type ChartTheme = 'light' | 'dark';

// Radix Colors step 9s, one step brighter on the dark canvas: distinct in hue and lightness.
const CATEGORY = {
  light: [
    '#3e63dd',
    '#12a594',
    '#e54d2e',
    '#ffb224',
    '#8e4ec6',
    '#46a758',
    '#d6409f',
    '#0090ff',
    '#ad7f58',
    '#6e6e6e',
  ],
  dark: [
    '#5472e4',
    '#0eb39e',
    '#ec6142',
    '#ffcb47',
    '#9a5cd0',
    '#53b365',
    '#de51a8',
    '#3b9eff',
    '#bb8f6f',
    '#8d8d8d',
  ],
};

const INK = {
  light: { background: '#ffffff', text: '#1c2024', subtle: '#60646c', grid: '#e8e8ec', domain: '#cdced6' },
  dark: { background: '#111113', text: '#edeef0', subtle: '#b0b4ba', grid: '#2a2c30', domain: '#43484e' },
};

export function chartConfig(theme: ChartTheme) {
  const ink = INK[theme];
  const axis = {
    labelColor: ink.subtle,
    titleColor: ink.text,
    gridColor: ink.grid,
    domainColor: ink.domain,
    tickColor: ink.domain,
    labelFontSize: 11,
    titleFontSize: 12,
    titleFontWeight: 'bold',
    titlePadding: 8,
  };
  return {
    background: ink.background,
    font: FONT_STACK,
    padding: 12,
    view: { stroke: 'transparent' },
    title: {
      color: ink.text,
      fontSize: 15,
      fontWeight: 'bold',
      subtitleColor: ink.subtle,
      anchor: 'start',
      offset: 12,
    },
    axis,
    axisX: { grid: false, labelAngle: 0, labelOverlap: true, labelLimit: 140, tickSize: 4 },
    axisY: { domain: false, ticks: false, labelPadding: 6 },
    legend: { labelColor: ink.subtle, titleColor: ink.text, labelFontSize: 11, titleFontSize: 12 },
    header: { labelColor: ink.subtle, titleColor: ink.text },
    range: { category: CATEGORY[theme] },
    mark: { color: CATEGORY[theme][0] },
    bar: { cornerRadiusEnd: 2 },
    line: { strokeWidth: 2 },
    point: { filled: true },
    text: { color: ink.text },
  } as const;
}

export const chartBackground = (theme: ChartTheme) => INK[theme].background;
