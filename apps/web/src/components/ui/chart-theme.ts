import { ColorType } from 'lightweight-charts';

/** A theme colour from the CSS variables (the charts draw on a canvas, outside CSS). */
export function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

/** '#4f8cff' → 'rgba(79, 140, 255, 0.35)': the chart's own colour parser wants plain colours. */
export function withAlpha(hex: string, alpha: number): string {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) return hex;
  const [r, g, b] = match.slice(1).map((part) => Number.parseInt(part, 16));
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

/** The options every chart takes from the current theme (read again when the theme changes). */
export function chartThemeOptions() {
  const line = cssVar('--k-line');
  return {
    layout: {
      background: { type: ColorType.Solid, color: cssVar('--k-surface') },
      textColor: cssVar('--k-muted'),
      fontFamily: getComputedStyle(document.documentElement).fontFamily,
      fontSize: 11,
    },
    grid: { vertLines: { color: line }, horzLines: { color: line } },
    rightPriceScale: { borderColor: line },
    timeScale: { borderColor: line },
    crosshair: {
      vertLine: { labelBackgroundColor: cssVar('--k-surface-3') },
      horzLine: { labelBackgroundColor: cssVar('--k-surface-3') },
    },
  };
}
