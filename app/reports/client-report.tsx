import { Form, useLoaderData, useLocation } from "@remix-run/react";

import {
  CLIENT_PERIOD_PRESETS,
  CLIENT_REPORT_TEXTS as T,
  formatPercent,
  OUTCOME_LABELS as L,
} from "../../api/domain/client-report";
import type { ClientReportAnswer } from "../../api/routes/report-client";

import { PageHeader } from "~/components/page-header";
import { formatDateBR } from "~/lib/format";
import { photoThumbUrl, photoZoomUrl } from "~/lib/photos";
import { useHydrated } from "~/lib/use-hydrated";

import {
  barFractions,
  countedNote,
  reportSubtitle,
  slotTime,
  toleranceNote,
  weekLabel,
  type ClientReportFigures,
} from "./client-report-format";
import type { clientReportLoader } from "./client-report.server";
import { PeriodFields } from "./period-fields";
import { withQuery } from "./report-links";

const PATH = "/relatorio-cliente";

/**
 * /relatorio-cliente (issue 24 part 3; docs/decisions/006-client-report.md): one GET form (the branch for company-wide
 * users, the dates, the presets as submit buttons), then the report in sections that print one per A4 page: the
 * summary, by room and by week (a table with a bar per row), the incidents, the evidence photos. 'Imprimir' with JS;
 * the PDF and the Excel file are plain links.
 */
export default function ClientReport() {
  const { inicio, fim, filial, branches, notice, query, report, inspecoes } =
    useLoaderData<typeof clientReportLoader>();
  const location = useLocation();
  const hydrated = useHydrated();
  return (
    <div className="client-report">
      <PageHeader title={T.title} help={T.tooltip}>
        {report ? (
          <div className="client-report-actions">
            {hydrated ? (
              <button type="button" className="button" onClick={() => window.print()}>
                Imprimir
              </button>
            ) : null}
            <a className="button" href={withQuery(`${PATH}/exportar.pdf`, query)}>
              Exportar PDF
            </a>
            <a className="button" href={withQuery(`${PATH}/exportar.xlsx`, query)}>
              Exportar Excel
            </a>
          </div>
        ) : null}
      </PageHeader>
      <Form method="get" className="client-report-filters" key={location.key} aria-label="Filtros do relatório">
        {branches ? (
          <div className="field">
            <label htmlFor="filial">Filial</label>
            <select id="filial" name="filial" defaultValue={filial ?? ""} required>
              <option value="" disabled>
                Escolha uma filial
              </option>
              {branches.map((branch) => (
                <option key={branch.id} value={branch.id}>
                  {branch.nome}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <PeriodFields from={inicio} to={fim} />
        <div className="client-report-buttons">
          <button type="submit" className="button button-primary">
            Gerar relatório
          </button>
          {Object.entries(CLIENT_PERIOD_PRESETS).map(([value, label]) => (
            <button
              key={value}
              type="submit"
              name="periodo"
              value={value}
              className="button"
              formNoValidate={!branches}
            >
              {label}
            </button>
          ))}
        </div>
      </Form>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {report ? (
        <ReportBody report={report} back={withQuery(PATH, query)} inspecoes={inspecoes} />
      ) : (
        <p className="empty-state">{T.chooseBranch}</p>
      )}
    </div>
  );
}

type InspectionScores = ReturnType<typeof useLoaderData<typeof clientReportLoader>>["inspecoes"];

function ReportBody({
  report,
  back,
  inspecoes,
}: {
  report: ClientReportAnswer;
  back: string;
  inspecoes: InspectionScores;
}) {
  const summary = report.resumo;
  const rest = report.ocorrencias.total - report.ocorrencias.items.length;
  return (
    <>
      <section className="client-report-section client-report-summary" aria-labelledby="cr-resumo">
        <p className="client-report-subject">
          <strong>{reportSubtitle(report)}</strong>
          {countedNote(report)}
        </p>
        <h2 id="cr-resumo">Resumo</h2>
        {summary.agendadas === 0 ? <p className="empty-state">{T.empty}</p> : null}
        <dl className="client-report-tiles">
          <Tile label={L.agendadas} count={summary.agendadas} />
          <Tile label={L.concluidas} count={summary.concluidas} share={summary.percentuais.concluidas} tone="done" />
          <Tile label={L.noPrazo} count={summary.noPrazo} share={summary.percentuais.noPrazo} tone="done" />
          <Tile label={L.atrasadas} count={summary.atrasadas} share={summary.percentuais.atrasadas} tone="late" />
          <Tile
            label={L.naoRealizadas}
            count={summary.naoRealizadas}
            share={summary.percentuais.naoRealizadas}
            tone="missed"
          />
          <Tile label={L.pendentes} count={summary.pendentes} share={summary.percentuais.pendentes} />
        </dl>
        <Bar figures={summary} />
        <Legend />
        <p className="muted">
          {L.naoRealizadas}: {summary.naoIniciadas} {L.naoIniciadas.toLowerCase()}, {summary.incompletas}{" "}
          {L.incompletas.toLowerCase()}, {summary.naoConcluidas} {L.naoConcluidas.toLowerCase()}.{" "}
          {toleranceNote(report)}
        </p>
        <details className="client-report-how">
          <summary>Como os números são calculados</summary>
          <ul>
            <li>
              Cada limpeza agendada é um horário de um dia (a limpeza principal e cada revisão), de agendas ativas, até
              hoje.
            </li>
            <li>
              Concluída: marcada como completa. Com atraso: iniciada depois do horário agendado mais a tolerância.
            </li>
            <li>
              Não realizada: não iniciada num dia já passado, registrada como incompleta (com o motivo) ou iniciada e
              não concluída num dia já passado. Pendente: de hoje, ainda em aberto.
            </li>
            <li>
              Os percentuais são de todas as agendadas, com uma casa decimal (arredondados cada um; a soma pode dar 99,9
              % ou 100,1 %).
            </li>
          </ul>
        </details>
      </section>

      <section className="client-report-section" aria-labelledby="cr-ambientes">
        <h2 id="cr-ambientes">Por ambiente</h2>
        {report.ambientes.length ? (
          <FigureTable
            caption="Limpezas por ambiente"
            first="Ambiente"
            rows={report.ambientes.map((room) => ({ key: room.ambienteId, label: room.ambiente, figures: room }))}
          />
        ) : (
          <p className="empty-state">{T.empty}</p>
        )}
      </section>

      <section className="client-report-section" aria-labelledby="cr-semanas">
        <h2 id="cr-semanas">Por semana</h2>
        <FigureTable
          caption="Limpezas por semana (segunda a domingo)"
          first="Semana"
          rows={report.semanas.map((week) => ({ key: week.semana, label: weekLabel(week), figures: week }))}
        />
      </section>

      <section className="client-report-section" aria-labelledby="cr-ocorrencias">
        <h2 id="cr-ocorrencias">Ocorrências</h2>
        {report.ocorrencias.items.length ? (
          <table className="client-report-table client-report-incidents">
            <caption>Limpezas registradas como incompletas, com o motivo (as mais recentes primeiro)</caption>
            <thead>
              <tr>
                <th scope="col">Data</th>
                <th scope="col">Horário</th>
                <th scope="col">Tipo</th>
                <th scope="col">Ambiente</th>
                <th scope="col">Colaborador</th>
                <th scope="col">Motivo</th>
              </tr>
            </thead>
            <tbody>
              {report.ocorrencias.items.map((incident) => (
                <tr key={incident.agendamentoId}>
                  <td data-label="Data">{formatDateBR(incident.data)}</td>
                  <td data-label="Horário">{slotTime(incident)}</td>
                  <td data-label="Tipo">{incident.tipo}</td>
                  <td data-label="Ambiente">{incident.ambiente}</td>
                  <td data-label="Colaborador">{incident.colaborador}</td>
                  <td data-label="Motivo">{incident.justificativa?.trim() || "-"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="empty-state">{T.incidentsEmpty}</p>
        )}
        {rest > 0 ? <p className="muted">{T.moreIncidents(rest)}</p> : null}
      </section>

      {inspecoes ? (
        <section className="client-report-section" aria-labelledby="cr-inspecoes">
          <h2 id="cr-inspecoes">Inspeções</h2>
          {inspecoes.rows.length ? (
            <>
              <p>
                {inspecoes.total} {inspecoes.total === 1 ? "inspeção" : "inspeções"} no período, nota média{" "}
                <strong>{inspecoes.mediaText}</strong>, {inspecoes.aprovadas} aprovadas.
              </p>
              <table className="client-report-table">
                <caption>Nota média das inspeções por ambiente (as menores primeiro)</caption>
                <thead>
                  <tr>
                    <th scope="col">Ambiente</th>
                    <th scope="col">Inspeções</th>
                    <th scope="col">Nota média</th>
                    <th scope="col">Aprovadas</th>
                  </tr>
                </thead>
                <tbody>
                  {inspecoes.rows.map((row) => (
                    <tr key={row.chave}>
                      <td data-label="Ambiente">{row.nome}</td>
                      <td data-label="Inspeções">{row.inspecoes}</td>
                      <td data-label="Nota média">{row.mediaText}</td>
                      <td data-label="Aprovadas">{row.aprovadas}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          ) : (
            <p className="empty-state">Nenhuma inspeção no período.</p>
          )}
        </section>
      ) : null}

      <section className="client-report-section" aria-labelledby="cr-fotos">
        <h2 id="cr-fotos">Fotos de evidência</h2>
        {report.fotos.length ? (
          <ul className="client-report-photos">
            {report.fotos.flatMap((room) =>
              room.fotos.map((photo) => (
                <li key={photo.nome}>
                  <figure>
                    <a href={photoZoomUrl(photo.nome, back)}>
                      <img
                        src={photoThumbUrl(photo.nome)}
                        alt={`${room.ambiente}: ${photo.procedimento}, ${formatDateBR(photo.data)}`}
                        loading="lazy"
                        width={160}
                        height={120}
                      />
                    </a>
                    <figcaption>
                      <strong>{room.ambiente}</strong>
                      <span>
                        {formatDateBR(photo.data)} · {photo.procedimento}
                      </span>
                    </figcaption>
                  </figure>
                </li>
              )),
            )}
          </ul>
        ) : (
          <p className="empty-state">{T.photosEmpty}</p>
        )}
      </section>
    </>
  );
}

function Tile({
  label,
  count,
  share,
  tone,
}: {
  label: string;
  count: number;
  share?: number | null;
  tone?: "done" | "late" | "missed";
}) {
  return (
    <div className={`client-report-tile${tone ? ` tile-${tone}` : ""}`}>
      <dt>{label}</dt>
      <dd>
        <span className="tile-count">{count.toLocaleString("pt-BR")}</span>
        {share !== undefined ? <span className="tile-share">{formatPercent(share)}</span> : null}
      </dd>
    </div>
  );
}

const BAR_LABELS = {
  noPrazo: L.noPrazo,
  atrasadas: L.atrasadas,
  naoRealizadas: L.naoRealizadas,
  pendentes: L.pendentes,
};

/**
 * A row's stacked bar: SVG rectangles (their widths are attributes, which the page's CSP allows where a style
 * attribute is refused, and they print without the browser's 'background graphics').
 */
function Bar({ figures }: { figures: ClientReportFigures }) {
  const parts = barFractions(figures);
  const label = figures.agendadas
    ? parts.map(({ key }) => `${BAR_LABELS[key]} ${formatPercent(figures.percentuais[key])}`).join(", ")
    : "Nenhuma limpeza agendada";
  let x = 0;
  return (
    <svg className="client-report-bar" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label={label}>
      <rect className="bar-track" x={0} y={0} width={100} height={10} />
      {parts.map(({ key, fraction }) => {
        const rect = <rect key={key} className={`bar-${key}`} x={x} y={0} width={fraction * 100} height={10} />;
        x += fraction * 100;
        return rect;
      })}
    </svg>
  );
}

function Legend() {
  return (
    <ul className="client-report-legend" aria-label="Legenda">
      {Object.entries(BAR_LABELS).map(([key, label]) => (
        <li key={key}>
          <svg viewBox="0 0 10 10" aria-hidden="true">
            <rect className={`bar-${key}`} width={10} height={10} />
          </svg>
          {label}
        </li>
      ))}
    </ul>
  );
}

function FigureTable({
  caption,
  first,
  rows,
}: {
  caption: string;
  first: string;
  rows: { key: string | number; label: string; figures: ClientReportFigures }[];
}) {
  return (
    <table className="client-report-table client-report-figures">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{first}</th>
          <th scope="col">{L.agendadas}</th>
          <th scope="col">{L.noPrazo}</th>
          <th scope="col">{L.atrasadas}</th>
          <th scope="col">{L.naoRealizadas}</th>
          <th scope="col">{L.pendentes}</th>
          <th scope="col">% concluídas</th>
          <th scope="col">Distribuição</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ key, label, figures }) => (
          <tr key={key}>
            <th scope="row">{label}</th>
            <td data-label={L.agendadas}>{figures.agendadas}</td>
            <td data-label={L.noPrazo}>{figures.noPrazo}</td>
            <td data-label={L.atrasadas}>{figures.atrasadas}</td>
            <td data-label={L.naoRealizadas}>{figures.naoRealizadas}</td>
            <td data-label={L.pendentes}>{figures.pendentes}</td>
            <td data-label="% concluídas">{formatPercent(figures.percentuais.concluidas)}</td>
            <td className="bar-cell">
              <Bar figures={figures} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
