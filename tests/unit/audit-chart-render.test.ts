/**
 * The audit charts' two renderers (issue 25): `chartConfig` (app/audit/chart-config.ts), the one chart.js
 * configuration, and `chartSvg` (app/audit/chart-svg.server.ts), the server's drawing of it as SVG on
 * @napi-rs/canvas; and the page's figure as the server renders it (before chart.js loads). Behaviour only: which
 * shapes and texts are drawn, not whole SVG snapshots.
 */
import type { ChartConfiguration, TooltipItem } from "chart.js";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, test } from "vitest";

import { CHARTS, FONT_DEFAULT, type ChartDescription } from "../../api/domain/audit.ts";
import { AuditChart } from "../../app/audit/audit-chart.tsx";
import { chartConfig, LABEL_MAX } from "../../app/audit/chart-config.ts";
import { chartSvg } from "../../app/audit/chart-svg.server.ts";

const HOUR = 3_600_000;

const doughnut = CHARTS[1]([
  { status: "Completo", count: 12 },
  { status: "Em andamento", count: 5 },
  { status: "Incompleto", count: 3 },
  { status: "Não Realizado", count: 1 },
]);
const stacked = CHARTS[3]([
  {
    id: 1,
    nome: "Filial Centro Comercial Sul Avenida Paulista",
    cnpj: "11.222.333/0001-81",
    counts: { "Em andamento": 3, Incompleto: 2, "A iniciar": 5, "Não Realizado": 1 },
  },
  {
    id: 2,
    nome: "Filial Norte",
    cnpj: "11.222.333/0002-62",
    counts: { "Em andamento": 0, Incompleto: 7, "A iniciar": 1, "Não Realizado": 0 },
  },
]);
const grouped = CHARTS[6]([
  {
    id: 1,
    nome: "Banheiro masculino térreo bloco A",
    filial: "Filial Norte",
    plannedMs: 12.5 * HOUR,
    actualMs: 14 * HOUR,
  },
  { id: 2, nome: "Cozinha", filial: "Filial Norte", plannedMs: 3 * HOUR, actualMs: 2.2 * HOUR },
  { id: 3, nome: "Recepção", filial: "Filial Norte", plannedMs: 1 * HOUR, actualMs: 0 },
]);
const weeks = CHARTS[9]([
  { semana: "2026-10-26", media: 87.5, inspecoes: 4, soma: 350 },
  { semana: "2026-11-02", media: 92.3, inspecoes: 3, soma: 276.9 },
  { semana: "2026-11-09", media: 100, inspecoes: 2, soma: 200 },
]);
const CASES = [
  ["doughnut", doughnut],
  ["stacked bar", stacked],
  ["grouped bar", grouped],
  ["weekly scores", weeks],
] as const;

const svgOf = (description: ChartDescription, fontSize = FONT_DEFAULT) => {
  const svg = chartSvg(description, { fontSize });
  if (svg === null) throw new Error("no SVG");
  return svg;
};
const paths = (svg: string) => svg.match(/<path\b[^>]*>/g) ?? [];
const filled = (svg: string, colour: string) =>
  paths(svg).filter((path) => path.toLowerCase().includes(`fill="${colour.toLowerCase()}"`));
/** The texts drawn (labels, legend, values), as the SVG's <text> elements hold them. */
const texts = (svg: string) => [...svg.matchAll(/<text\b[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]);
const fontSizes = (svg: string) => new Set([...svg.matchAll(/<text\b[^>]*font-size="([\d.]+)"/g)].map((m) => m[1]));

describe("chartSvg", () => {
  test.each(CASES)("%s: one <svg> sized by its viewBox, named by the summary, without prolog", (_, description) => {
    const svg = svgOf(description);
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).not.toContain("<?xml");
    const open = svg.slice(0, svg.indexOf(">") + 1);
    expect(open).toContain('viewBox="0 0 420 300"');
    expect(open).not.toMatch(/\swidth=/);
    expect(open).toContain('role="img"');
    expect(open).toContain(`aria-label="${description.summary}"`);
    expect(svg.endsWith("</svg>")).toBe(true);
    // No inline style attributes (the CSP allows none); text in Roboto, else the reader's sans-serif; every glyph
    // position list a valid SVG number list (Skia's trailing ', ' removed).
    expect(svg).not.toMatch(/\sstyle=/);
    expect(svg).toContain('font-family="Roboto, Arial, Helvetica, sans-serif"');
    for (const [, list] of svg.matchAll(/\s[xy]="([^"]*)"/g)) expect(list).toMatch(/^-?[\d.]+(, -?[\d.]+)*$/);
  });

  test("a doughnut draws each slice in its colour (and its legend box)", () => {
    const svg = svgOf(doughnut);
    for (const colour of doughnut.datasets[0].colours) expect(filled(svg, colour)).toHaveLength(2);
    // Every value is written on its slice (all four fit at this size), and each status in the legend.
    expect(texts(svg)).toEqual(expect.arrayContaining(["12", "5", "3", "1", ...doughnut.labels]));
  });

  test.each([
    ["stacked bar", stacked],
    ["grouped bar", grouped],
    ["weekly scores", weeks],
  ] as const)("a %s draws one shape per non-zero value in its dataset's colour, plus its legend box", (_, chart) => {
    const svg = svgOf(chart);
    for (const dataset of chart.datasets) {
      const nonZero = dataset.data.filter((value) => value > 0).length;
      expect(filled(svg, dataset.colours[0]), dataset.label).toHaveLength(nonZero + 1);
    }
  });

  test.each(CASES)("%s: writes its labels as text, and other labels write other text", (_, description) => {
    const svg = svgOf(description);
    const shown = texts(svg).join(" ");
    for (const label of description.labels) expect(shown).toContain(label.slice(0, 10));
    const renamed = { ...description, labels: description.labels.map((label) => label.toUpperCase()) };
    const other = svgOf(renamed);
    expect(texts(other).join(" ")).toContain(renamed.labels.at(-1)!.slice(0, 8));
    expect(texts(other)).not.toEqual(texts(svg));
  });

  test.each(CASES)("%s: the same description gives the same SVG, other charts drawn in between", (_, description) => {
    const first = svgOf(description);
    svgOf(stacked);
    svgOf(doughnut);
    expect(svgOf(description)).toBe(first);
  });

  test.each(CASES)("%s: another font size writes the text in that size", (_, description) => {
    const small = svgOf(description, FONT_DEFAULT);
    const large = svgOf(description, FONT_DEFAULT + 4);
    expect(large).not.toBe(small);
    expect(fontSizes(small)).toContain(String(FONT_DEFAULT));
    expect(fontSizes(large)).toContain(String(FONT_DEFAULT + 4));
    expect(fontSizes(large)).not.toContain(String(FONT_DEFAULT));
  });

  test("ids are the board's own, and every reference finds its id", () => {
    const svg = svgOf(stacked);
    const ids = [...svg.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(id).toMatch(/^audit-chart-3-\d+$/);
    for (const [, id] of svg.matchAll(/url\(#([^)]+)\)/g)) expect(ids).toContain(id);
  });

  test("the weekly scores write each mean with one decimal over its bar, the axis in percent up to 100%", () => {
    const shown = texts(svgOf(weeks));
    expect(shown).toEqual(expect.arrayContaining(["87,5%", "92,3%", "100,0%", "0%", "100%", "Pontuação média"]));
  });

  test("the summary is escaped in its attribute", () => {
    const svg = svgOf({ ...grouped, summary: 'Sala "A" & <B>' });
    expect(svg).toContain('aria-label="Sala &quot;A&quot; &amp; &lt;B&gt;"');
  });

  test("an empty chart is not drawn (the page writes 'Sem dados')", () => {
    const empty = CHARTS[2]([]);
    expect(empty.empty).toBe(true);
    expect(chartSvg(empty, { fontSize: FONT_DEFAULT })).toBeNull();
  });
});

describe("chartConfig", () => {
  const configOf = (description: ChartDescription, fontSize = FONT_DEFAULT) =>
    chartConfig(description, { fontSize }) as ChartConfiguration<"bar">;

  test("bars stack when the description says so, and only then", () => {
    expect(configOf(stacked).options?.scales?.x?.stacked).toBe(true);
    expect(configOf(stacked).options?.scales?.y?.stacked).toBe(true);
    expect(configOf(grouped).options?.scales?.x?.stacked).toBe(false);
    expect(configOf(grouped).options?.scales?.y?.stacked).toBe(false);
  });

  test("the description's colours: one per slice on a doughnut, one per dataset on bars", () => {
    const pie = chartConfig(doughnut, { fontSize: FONT_DEFAULT });
    expect(pie.type).toBe("doughnut");
    expect(pie.data.datasets[0].backgroundColor).toEqual(doughnut.datasets[0].colours);
    expect(configOf(stacked).data.datasets.map((set) => set.backgroundColor)).toEqual(
      stacked.datasets.map((set) => set.colours[0]),
    );
  });

  test("the font size goes to the legend and the ticks; the title is not drawn; the legend is at the bottom", () => {
    const config = configOf(grouped, 14);
    expect(config.options?.plugins?.legend?.labels?.font).toMatchObject({ size: 14 });
    expect(config.options?.plugins?.legend?.position).toBe("bottom");
    expect(config.options?.plugins?.title?.display).toBe(false);
    expect(config.options?.scales?.x?.ticks?.font).toMatchObject({ size: 14 });
    expect(config.options?.scales?.y?.ticks?.font).toMatchObject({ size: 14 });
    expect(config.options?.animation).toBe(false);
    expect(config.plugins?.map((plugin) => plugin.id)).toEqual(["auditValues"]);
  });

  test("the value axis speaks the unit", () => {
    type Tick = (this: unknown, value: number | string, index: number, ticks: unknown[]) => unknown;
    const tick = (description: ChartDescription, value: number) =>
      (configOf(description).options?.scales?.y?.ticks?.callback as Tick).call(null, value, 0, []);
    expect(tick(grouped, 2.5)).toBe("2,5 h");
    expect(tick(stacked, 1000)).toBe("1.000");
    const usage = CHARTS[7]([{ id: 1, nome: "Ana", scheduled: 4, started: 3 }]);
    expect(tick(usage, 50)).toBe("50%");
    expect(tick(weeks, 50)).toBe("50%");
  });

  test("shares and scores stop at 100%; only the weeks, a sequence, may leave labels out when they do not fit", () => {
    const usage = CHARTS[7]([{ id: 1, nome: "Ana", scheduled: 4, started: 3 }]);
    for (const chart of [usage, weeks]) {
      expect(configOf(chart).options?.scales?.y).toMatchObject({ suggestedMax: 100, grace: 0 });
    }
    expect(configOf(grouped).options?.scales?.y?.suggestedMax).toBeUndefined();
    expect(configOf(weeks).options?.scales?.x?.ticks?.autoSkip).toBe(true);
    for (const chart of [stacked, grouped, usage])
      expect(configOf(chart).options?.scales?.x?.ticks?.autoSkip).toBe(false);
  });

  test("long names end in '…' on the chart; the tooltip gives them whole", () => {
    const config = configOf(stacked);
    const [long, short] = config.data.labels as string[];
    expect([...long].length).toBe(LABEL_MAX);
    expect(long.endsWith("…")).toBe(true);
    expect(stacked.labels[0].startsWith(long.slice(0, -1))).toBe(true);
    expect(short).toBe("Filial Norte");
    const title = config.options?.plugins?.tooltip?.callbacks?.title as (items: TooltipItem<"bar">[]) => string;
    expect(title.call(null as never, [{ dataIndex: 0 } as TooltipItem<"bar">])).toBe(stacked.labels[0]);
  });
});

describe("AuditChart before hydration", () => {
  test("the title as caption, the server's SVG inline, and the numbers in a table", () => {
    const svg = svgOf(grouped);
    const html = renderToString(createElement(AuditChart, { chart: grouped, svg, fontSize: FONT_DEFAULT }));
    expect(html).toContain(`<figcaption class="audit-chart-title">${grouped.title}</figcaption>`);
    expect(html).toContain(svg);
    expect(html).not.toContain("<canvas");
    expect(html).toContain("<caption>Tempo Previsto x Realizado</caption>");
    expect(html).toContain("<summary>Ver dados</summary>");
    // Whole names and valueText's numbers, where the chart shortens both.
    expect(html).toContain('<th scope="row">Banheiro masculino térreo bloco A</th>');
    expect(html).toContain("<td>12,5 h</td><td>14 h</td>");
    expect(html).toContain("<td>1 h</td><td>0 h</td>");
  });

  test("the weekly scores' table: 'Semana', each week's mean with one decimal", () => {
    const html = renderToString(createElement(AuditChart, { chart: weeks, svg: svgOf(weeks), fontSize: FONT_DEFAULT }));
    expect(html).toContain('<th scope="col">Semana</th><th scope="col">Pontuação média</th>');
    expect(html).toContain('<th scope="row">Semana de 02/11</th><td>92,3%</td>');
  });

  test("an empty chart says 'Sem dados', with neither drawing nor table", () => {
    const empty = CHARTS[4]([]);
    const html = renderToString(createElement(AuditChart, { chart: empty, svg: null, fontSize: FONT_DEFAULT }));
    expect(html).toContain("Sem dados");
    expect(html).not.toContain("<svg");
    expect(html).not.toContain("<table");
  });
});
