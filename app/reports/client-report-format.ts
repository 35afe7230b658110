import type { ClientReportAnswer } from "../../api/routes/report-client";

import { formatDateBR } from "~/lib/format";

/**
 * The client report's texts that the page, the PDF and the Excel file share (browser-safe;
 * docs/decisions/006-client-report.md).
 */

export type ClientReportFigures = ClientReportAnswer["resumo"];

/** A week's row label, clipped to the period: '26/01 a 01/02'. */
export const weekLabel = (week: { inicio: string; fim: string }) =>
  `${formatDateBR(week.inicio).slice(0, 5)} a ${formatDateBR(week.fim).slice(0, 5)}`;

/** 'Filial Aldeota · De 01/02/2026 até 28/02/2026'. */
export const reportSubtitle = (report: ClientReportAnswer) =>
  `${report.filial.nome} · De ${formatDateBR(report.periodo.dataIni)} até ${formatDateBR(report.periodo.dataFim)}`;

/** When the period reaches today: the days after it are not counted. */
export const countedNote = (report: ClientReportAnswer) =>
  report.periodo.contadoAte < report.periodo.dataFim
    ? ` (contadas até hoje, ${formatDateBR(report.periodo.contadoAte)})`
    : "";

export const toleranceNote = (report: ClientReportAnswer) =>
  `Com atraso: iniciadas mais de ${report.toleranciaMinutos} min após o horário agendado.`;

export const slotTime = (slot: { horaIni: string; horaFim: string }) => `${slot.horaIni} - ${slot.horaFim}`;

/** The stacked bar's parts, in order, each a share of the scheduled (the widths: exact fractions, not rounded). */
export const BAR_PARTS = ["noPrazo", "atrasadas", "naoRealizadas", "pendentes"] as const;
export const barFractions = (row: ClientReportFigures) =>
  BAR_PARTS.map((key) => ({ key, fraction: row.agendadas ? row[key] / row.agendadas : 0 }));
