import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  DoughnutController,
  Legend,
  LinearScale,
  Tooltip,
  type ChartConfiguration,
} from "chart.js";
import { useMemo } from "react";
import { Chart } from "react-chartjs-2";

import type { ChartDescription } from "../../api/domain/audit";

import { chartConfig } from "./chart-config";

/**
 * The browser's renderer of an audit chart: `chartConfig` in a canvas. Loaded only by `import()` from
 * app/audit/audit-chart.tsx once the page has hydrated, so chart.js stays out of the page's first JS; only the pieces
 * the two chart types use are registered.
 */
ChartJS.register(
  ArcElement,
  BarElement,
  CategoryScale,
  LinearScale,
  Legend,
  Tooltip,
  DoughnutController,
  BarController,
);
// The page's font rather than chart.js's Helvetica stack.
if (typeof document !== "undefined") ChartJS.defaults.font.family = getComputedStyle(document.body).fontFamily;

export type ChartCanvasProps = { chart: ChartDescription; fontSize: number };

export function ChartCanvas({ chart, fontSize }: ChartCanvasProps) {
  const config = useMemo(
    () => chartConfig(chart, { fontSize, responsive: true }) as ChartConfiguration,
    [chart, fontSize],
  );
  // `redraw`: the value labels' plugin holds the description and the font size, and react-chartjs-2 gives plugins to
  // a chart only when it creates it; the config changes only with them (useMemo), so a new chart is made only then.
  return (
    <Chart
      redraw
      type={config.type}
      data={config.data}
      options={config.options}
      plugins={config.plugins}
      aria-label={chart.summary}
    />
  );
}
