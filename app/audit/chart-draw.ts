import { Chart, type ChartConfiguration } from "chart.js";

import type { ChartDescription } from "../../api/domain/audit";

import { chartConfig } from "./chart-config";
import { CHART_PARTS } from "./chart-parts";

/**
 * The browser's renderer of an audit chart: `chartConfig` drawn by chart.js in the page's canvas. Loaded only by
 * `import()` from app/audit/audit-chart.tsx once the page has hydrated, so chart.js stays out of the page's first JS.
 * No React here: a lazy module that imported React made the bundler split React out of the shared chunk every page
 * loads, ~0.3 KB more gzip JS on every page (past the 120 KB budget of the largest). Only the pieces the two chart
 * types use are registered (chart-parts.ts).
 */
Chart.register(...CHART_PARTS);
// The page's font rather than chart.js's Helvetica stack.
Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;

/** Draws the chart in `canvas`; the caller destroys it (`.destroy()`) before drawing there again. */
export function drawChart(canvas: HTMLCanvasElement, chart: ChartDescription, fontSize: number) {
  return new Chart(canvas, chartConfig(chart, { fontSize, responsive: true }) as ChartConfiguration);
}
