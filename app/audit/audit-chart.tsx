import { useEffect, useRef, useState } from "react";

import { AUDIT_TEXTS, valueText, type BoardId, type ChartDescription } from "../../api/domain/audit";

/** What each board's labels name: the data table's first column. */
export const LABEL_HEADERS: Record<BoardId, string> = {
  1: "Situação",
  2: "Colaborador",
  3: "Filial",
  4: "Ambiente",
  5: "Ambiente",
  6: "Ambiente",
  7: "Colaborador",
  8: "Colaborador",
  9: "Semana",
};

type DrawChart = typeof import("./chart-draw").drawChart;

/**
 * The browser's renderer, fetched after hydration: null on the server and in the first browser render (so hydration
 * matches), then chart.js's drawing function once its chunk has loaded. Until then, or if it never loads, the
 * server's SVG stays on screen: chart.js never weighs on the page's first JS, and nothing blinks while it loads.
 */
function useChartDrawer() {
  const [draw, setDraw] = useState<DrawChart | null>(null);
  useEffect(() => {
    let live = true;
    import("./chart-draw").then(
      (module) => live && setDraw(() => module.drawChart),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return draw;
}

/** The chart drawn by chart.js in a canvas, drawn again when the chart or the font size changes. */
function ChartCanvas({ draw, chart, fontSize }: { draw: DrawChart; chart: ChartDescription; fontSize: number }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const drawn = draw(canvas.current, chart, fontSize);
    return () => drawn.destroy();
  }, [draw, chart, fontSize]);
  return <canvas ref={canvas} role="img" aria-label={chart.summary} />;
}

/**
 * One audit chart (issue 25): the title as the caption, the chart, and its numbers in a table beneath. Without JS
 * the chart is `svg`, the server's drawing of the same configuration (app/audit/chart-svg.server.ts); with JS,
 * chart.js in a canvas with tooltips. An empty chart is the text 'Sem dados' (no drawing, no table).
 */
export function AuditChart({
  chart,
  svg,
  fontSize,
}: {
  chart: ChartDescription;
  svg: string | null;
  fontSize: number;
}) {
  const draw = useChartDrawer();
  return (
    <figure className="audit-chart">
      <figcaption className="audit-chart-title">{chart.title}</figcaption>
      {chart.empty ? (
        <p className="audit-chart-empty">{AUDIT_TEXTS.noData}</p>
      ) : (
        <>
          <div className="audit-chart-plot">
            {draw ? (
              <ChartCanvas draw={draw} chart={chart} fontSize={fontSize} />
            ) : svg ? (
              // Our own markup: shapes, text and the escaped summary (chartSvg).
              <div className="audit-chart-svg" dangerouslySetInnerHTML={{ __html: svg }} />
            ) : null}
          </div>
          <ChartTable chart={chart} />
        </>
      )}
    </figure>
  );
}

/** The chart's numbers, whole names and all (the chart shortens long ones), folded under 'Ver dados'. */
function ChartTable({ chart }: { chart: ChartDescription }) {
  return (
    <details className="audit-chart-data">
      <summary>Ver dados</summary>
      <div className="table-scroll">
        <table className="data-table audit-chart-table">
          <caption>{chart.title}</caption>
          <thead>
            <tr>
              <th scope="col">{LABEL_HEADERS[chart.board]}</th>
              {chart.datasets.map((dataset) => (
                <th scope="col" key={dataset.label}>
                  {dataset.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {chart.labels.map((label, index) => (
              <tr key={`${index}-${label}`}>
                <th scope="row">{label}</th>
                {chart.datasets.map((dataset) => (
                  <td key={dataset.label}>{valueText(chart.unit, dataset.data[index] ?? 0)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
