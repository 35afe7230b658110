import { createRequire } from "node:module";

import { createCanvas, GlobalFonts, SvgExportFlag } from "@napi-rs/canvas";
import { Chart, type ChartConfiguration } from "chart.js";

import type { ChartDescription } from "../../api/domain/audit";

import { CHART_HEIGHT, CHART_WIDTH, chartConfig } from "./chart-config";
import { CHART_PARTS } from "./chart-parts";

/**
 * An audit chart drawn on the server (issue 25): chart.js draws `chartConfig` on a Skia SVG canvas, for the page
 * without JS (and before chart.js loads) and for the PDF. Text stays text (`<text>` in Roboto, then the reader's sans-serif):
 * as paths it made a full page of eight charts ~1-2 MB of HTML (150-300 KB gzip) against the 100 KB; as text
 * a 10-bar chart is ~10 KB (1.4 KB gzip). Skia still needs Roboto registered here to measure and place the text.
 */

const FONT_FAMILY = "Roboto";
let ready = false;

/**
 * Once per process, at first use: chart.js's pieces, and Roboto (the family pdfmake ships; Medium is its bold) as
 * the only font, or Skia has none to measure and draw with on a bare server.
 */
function prepare() {
  if (ready) return;
  const require = createRequire(import.meta.url);
  for (const file of ["Roboto-Regular.ttf", "Roboto-Medium.ttf"]) {
    const path = require.resolve(`pdfmake/build/fonts/Roboto/${file}`);
    if (!GlobalFonts.registerFromPath(path, FONT_FAMILY)) throw new Error(`Audit charts: cannot load the font ${path}`);
  }
  Chart.register(...CHART_PARTS);
  Chart.defaults.font.family = FONT_FAMILY;
  ready = true;
}

/** Coordinates to a tenth of a unit: Skia writes eight digits; a tenth of a pixel is below what any screen shows. */
const tenth = (number: string) => {
  const text = (Math.round(Number(number) * 10) / 10).toString();
  return text === "-0" ? "0" : text;
};

const escapeAttribute = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * The chart as SVG markup (no XML prolog), sized by its viewBox only so CSS scales it (`width: 100%`), with
 * role="img" and the summary as its accessible name. Skia's clip-path ids are renumbered under the board's id: eight
 * charts inline on one page must not share ids, and the same chart must give the same text on every call.
 *
 * An empty description gives null: there is nothing to draw, and the page writes 'Sem dados' in its place.
 *
 * Synchronous: chart.js draws in one pass with animation off (a few ms a chart), and Skia encodes on the spot.
 */
export function chartSvg(
  description: ChartDescription,
  { fontSize, width = CHART_WIDTH, height = CHART_HEIGHT }: { fontSize: number; width?: number; height?: number },
): string | null {
  if (description.empty) return null;
  prepare();
  const canvas = createCanvas(width, height, SvgExportFlag.NoPrettyXML);
  const config = chartConfig(description, { fontSize, responsive: false }) as ChartConfiguration;
  const chart = new Chart(canvas.getContext("2d") as unknown as CanvasRenderingContext2D, {
    ...config,
    options: { ...config.options, responsive: false, animation: false, devicePixelRatio: 1, events: [] },
  });
  let raw: string;
  try {
    raw = canvas.getContent().toString("utf8");
  } finally {
    chart.destroy();
  }

  const ids = new Map<string, string>();
  const idFor = (id: string) => {
    if (!ids.has(id)) ids.set(id, `audit-chart-${description.board}-${ids.size + 1}`);
    return ids.get(id);
  };
  const label = escapeAttribute(description.summary);
  return (
    raw
      .replace(/^<\?xml[^>]*>\s*/, "")
      .replace(/>\s+</g, "><")
      .replace(/-?\d+\.\d+/g, tenth)
      .replace(/\sid="([^"]+)"/g, (_, id: string) => ` id="${idFor(id)}"`)
      .replace(/url\(#([^)]+)\)/g, (_, id: string) => `url(#${idFor(id)})`)
      // Skia ends each glyph-position list with ', ', which SVG's number lists do not allow: a browser would drop them.
      .replace(/\s(x|y)="([^"]*?)[,\s]+"/g, (_, axis: string, list: string) => ` ${axis}="${list}"`)
      // Roboto where the reader has it, else their sans-serif (the widths were measured in Roboto).
      .replace(/font-family="Roboto"/g, 'font-family="Roboto, Arial, Helvetica, sans-serif"')
      .replace(
        /^<svg([^>]*?)\swidth="[\d.]+"\sheight="[\d.]+"([^>]*)>/,
        (_, before: string, after: string) =>
          `<svg${before}${after} viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}">`,
      )
      .trim()
  );
}
