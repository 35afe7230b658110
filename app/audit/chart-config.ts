import type { Chart, ChartConfiguration, Plugin, TooltipItem } from "chart.js";

import { INSPECTION_BOARD, valueText, type ChartDescription } from "../../api/domain/audit";

/**
 * The one chart.js configuration of an audit chart (issue 25): the browser draws it in a canvas
 * (app/audit/chart-draw.ts), the server on an SVG canvas (app/audit/chart-svg.server.ts). Type imports only, so
 * this module costs nothing until chart.js itself loads.
 */

/** The server's drawing size; the browser keeps the same aspect ratio so the canvas takes the SVG's place. */
export const CHART_WIDTH = 420;
export const CHART_HEIGHT = 300;
/** Room and collaborator names longer than this end in '…' on the axis and the legend (the table has them whole). */
export const LABEL_MAX = 24;

const DARK = "#1d2630";
const GRID = "rgba(0, 0, 0, 0.1)";

export type AuditChartConfiguration = ChartConfiguration<"doughnut"> | ChartConfiguration<"bar">;

export const shortLabel = (label: string) => {
  const chars = [...label];
  return chars.length > LABEL_MAX
    ? `${chars
        .slice(0, LABEL_MAX - 1)
        .join("")
        .trimEnd()}…`
    : label;
};

/** The number written on a slice or bar: `valueText` without the word 'atividades' (the legend and table say it). */
export const shortValue = (unit: ChartDescription["unit"], value: number) =>
  unit === "atividades" ? value.toLocaleString("pt-BR") : valueText(unit, value);

/** Units on a 0 to 100 scale: a share of slots, an inspection score. */
const isPercent = (unit: ChartDescription["unit"]) => unit === "%" || unit === "nota";

const tickText = (unit: ChartDescription["unit"], value: number) => {
  const text = value.toLocaleString("pt-BR", { maximumFractionDigits: 2 });
  if (isPercent(unit)) return `${text}%`;
  if (unit === "horas") return `${text} h`;
  if (unit === "minutos") return `${text} min`;
  return text;
};

/** Black or white, whichever reads better on a #RRGGBB fill (WCAG relative luminance). */
function inkOn(fill: string) {
  const match = /^#([0-9a-f]{6})$/i.exec(fill);
  if (!match) return DARK;
  const channel = (offset: number) => {
    const value = parseInt(match[1].slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
  return luminance > 0.18 ? "#000000" : "#ffffff";
}

/**
 * Writes each non-zero value on its slice or bar (colour is never the only cue). A value that fits nowhere legible
 * is left out of the drawing: the tooltip and the table beneath still give it. Drawn with the canvas API only, so it
 * behaves the same on the browser's canvas and on the server's.
 */
function valueLabels(description: ChartDescription, fontSize: number): Plugin<"doughnut" | "bar"> {
  return {
    id: "auditValues",
    afterDatasetsDraw(chart: Chart) {
      const { ctx } = chart;
      const family = chart.options.font?.family ?? "sans-serif";
      ctx.save();
      ctx.font = `bold ${fontSize}px ${family}`;
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      const write = (text: string, x: number, y: number, colour: string, rotated = false) => {
        ctx.fillStyle = colour;
        if (!rotated) return ctx.fillText(text, x, y);
        ctx.save();
        ctx.translate(x, y);
        ctx.rotate(-Math.PI / 2);
        ctx.fillText(text, 0, 0);
        ctx.restore();
      };
      description.datasets.forEach((dataset, datasetIndex) => {
        if (!chart.isDatasetVisible(datasetIndex)) return;
        chart.getDatasetMeta(datasetIndex).data.forEach((element, index) => {
          const value = dataset.data[index];
          if (!value || !chart.getDataVisibility(index)) return;
          const text = shortValue(description.unit, value);
          const width = ctx.measureText(text).width;
          const height = fontSize;
          if (description.type === "doughnut") {
            const { x, y, startAngle, endAngle, innerRadius, outerRadius } = element.getProps(
              ["x", "y", "startAngle", "endAngle", "innerRadius", "outerRadius"],
              true,
            ) as unknown as Record<string, number>;
            const middle = (startAngle + endAngle) / 2;
            const along = ((endAngle - startAngle) * (innerRadius + outerRadius)) / 2;
            const across = outerRadius - innerRadius;
            const [cos, sin] = [Math.abs(Math.cos(middle)), Math.abs(Math.sin(middle))];
            if (width * cos + height * sin > across - 2 || width * sin + height * cos > along - 2) return;
            const radius = (innerRadius + outerRadius) / 2;
            const ink = inkOn(dataset.colours[index] ?? dataset.colours[0]);
            return write(text, x + Math.cos(middle) * radius, y + Math.sin(middle) * radius, ink);
          }
          const {
            x,
            y,
            base,
            width: barWidth,
          } = element.getProps(["x", "y", "base", "width"], true) as unknown as Record<string, number>;
          const barHeight = Math.abs(base - y);
          const ink = inkOn(dataset.colours[0]);
          if (description.stacked) {
            if (width <= barWidth - 2 && height <= barHeight) return write(text, x, (y + base) / 2, ink);
            if (height <= barWidth - 2 && width <= barHeight - 4) return write(text, x, (y + base) / 2, ink, true);
            return;
          }
          if (width <= barWidth + 2) return write(text, x, y - 2 - height / 2, DARK);
          if (height > barWidth + 4) return;
          if (width <= barHeight - 6) return write(text, x, y + 3 + width / 2, ink, true);
          return write(text, x, y - 3 - width / 2, DARK, true);
        });
      });
      ctx.restore();
    },
  };
}

/**
 * The chart.js configuration of a description. `responsive` is the caller's: true in the browser (the canvas follows
 * its box at the server's aspect ratio), false on the server (the canvas has a fixed size). No animation on either
 * side: the SVG it replaces is already drawn, and the page should not move.
 */
export function chartConfig(
  description: ChartDescription,
  { fontSize, responsive = false }: { fontSize: number; responsive?: boolean },
): AuditChartConfiguration {
  const { unit } = description;
  const font = { size: fontSize };
  const labels = description.labels.map(shortLabel);
  const common = {
    responsive,
    maintainAspectRatio: true,
    aspectRatio: CHART_WIDTH / CHART_HEIGHT,
    animation: false as const,
    layout: { padding: { top: fontSize + 4, left: 4, right: 4 } },
    plugins: {
      // The page's <figcaption> is the title.
      title: { display: false },
      legend: {
        position: "bottom" as const,
        labels: { font, color: DARK, boxWidth: fontSize + 2, boxHeight: fontSize, padding: 8 },
      },
      tooltip: {
        titleFont: font,
        bodyFont: font,
        callbacks: {
          // The axis and legend show short names; the tooltip the whole one.
          title: (items: TooltipItem<"doughnut" | "bar">[]) => description.labels[items[0]?.dataIndex ?? 0] ?? "",
          label: (item: TooltipItem<"doughnut" | "bar">) =>
            description.type === "doughnut"
              ? valueText(unit, Number(item.raw))
              : `${item.dataset.label}: ${valueText(unit, Number(item.raw))}`,
        },
      },
    },
  };

  if (description.type === "doughnut") {
    const [dataset] = description.datasets;
    return {
      type: "doughnut",
      data: {
        labels,
        datasets: [
          {
            label: dataset.label,
            data: dataset.data,
            backgroundColor: dataset.colours,
            borderColor: "#ffffff",
            borderWidth: 1,
          },
        ],
      },
      options: { ...common, cutout: "42%" },
      plugins: [valueLabels(description, fontSize)],
    };
  }

  return {
    type: "bar",
    data: {
      labels,
      datasets: description.datasets.map((dataset) => ({
        label: dataset.label,
        data: dataset.data,
        backgroundColor: dataset.colours[0],
        borderColor: dataset.colours[0],
        borderWidth: 0,
      })),
    },
    options: {
      ...common,
      scales: {
        x: {
          stacked: description.stacked,
          grid: { display: false },
          // A ranking's name is its bar's only name on the chart: every one is written. The inspection chart's weeks
          // are a sequence: when a long period's do not fit, chart.js leaves some out at even steps (the tooltip and
          // the table name them all).
          ticks: { font, color: DARK, autoSkip: description.board === INSPECTION_BOARD, maxRotation: 90 },
        },
        y: {
          stacked: description.stacked,
          beginAtZero: true,
          // Room above the highest bar for its value (a share stops at 100%: the layout's top padding holds it).
          grace: description.stacked || isPercent(unit) ? 0 : "8%",
          suggestedMax: isPercent(unit) ? 100 : undefined,
          grid: { color: GRID },
          ticks: {
            font,
            color: DARK,
            precision: unit === "atividades" ? 0 : undefined,
            callback: (value) => tickText(unit, Number(value)),
          },
        },
      },
    },
    plugins: [valueLabels(description, fontSize)],
  };
}
