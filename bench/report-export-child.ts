/**
 * The child process of bench/export.ts `measureReportExports` (issue 23): builds `rows` report rows as an .xlsx through
 * the app's streaming writer (app/lib/xlsx.server.ts `xlsxResponse`, its body drained as a download is read) or as CSV
 * with papaparse (the project's CSV library) into a drained stream, `runs` times after a 500-row warm-up, and prints
 * the times, the bytes and its peak RSS as one JSON line. Alone in its process, so the peak belongs to that format and
 * size; it loads only the writer it measures.
 *
 * The peak is VmHWM (/proc/self/status), the high-water mark of this program's own memory. getrusage's maxRSS
 * (process.resourceUsage().maxRSS) is not it on Linux: exec keeps the larger of the two, and the forked copy of the
 * parent counts, so a child of a bench process holding PGlite's ~200 MB read 214 MB for every format and size.
 *
 * `npx tsx bench/report-export-child.ts xlsx 10000 3`
 */
import { readFileSync } from "node:fs";
import { PassThrough } from "node:stream";

import type { SheetColumn } from "../app/lib/xlsx.server.ts";

/** The report row of spec 001 §3: agenda id, company, room, category, sector, floor, user, procedure, type, ... */
type ReportRow = {
  agendaId: number;
  empresa: string;
  ambiente: string;
  categoria: string;
  setor: string;
  andar: string;
  colaborador: string;
  procedimento: string;
  tipo: "Principal" | "Revisão" | "Extra";
  dia: string;
  inicio: string;
  fim: string;
  tempoPrevisto: string;
  inicioReal: string;
  fimReal: string;
  duracao: string;
  diferenca: string;
  observacao: string;
  descricao: string;
  status: string;
};

const COLUMNS: SheetColumn<ReportRow>[] = [
  { header: "Agenda", width: 10, value: (row) => row.agendaId },
  { header: "Empresa", width: 24, value: (row) => row.empresa },
  { header: "Ambiente", width: 24, value: (row) => row.ambiente },
  { header: "Categoria", width: 16, value: (row) => row.categoria },
  { header: "Setor", width: 18, value: (row) => row.setor },
  { header: "Andar", width: 10, value: (row) => row.andar },
  { header: "Colaborador", width: 24, value: (row) => row.colaborador },
  { header: "Procedimento", width: 24, value: (row) => row.procedimento },
  { header: "Tipo", width: 10, value: (row) => row.tipo },
  { header: "Dia agendado", width: 12, value: (row) => row.dia },
  { header: "Início agendado", width: 10, value: (row) => row.inicio },
  { header: "Fim agendado", width: 10, value: (row) => row.fim },
  { header: "Tempo previsto", width: 12, value: (row) => row.tempoPrevisto },
  { header: "Início realizado", width: 20, value: (row) => row.inicioReal },
  { header: "Fim realizado", width: 20, value: (row) => row.fimReal },
  { header: "Duração", width: 12, value: (row) => row.duracao },
  { header: "Diferença", width: 12, value: (row) => row.diferenca },
  { header: "Observação", width: 30, value: (row) => row.observacao },
  { header: "Descrição", width: 30, value: (row) => row.descricao },
  { header: "Status", width: 14, value: (row) => row.status },
];

const PLACES = ["Banheiro", "Enfermaria", "Consultório", "Corredor", "Sala de espera", "Copa", "Recepção", "Posto"];
const CATEGORIES = ["Banheiro", "Sala", "Corredor", "Enfermaria", "Copa", "Escritório"];
const SECTORS = ["Recepção", "Centro Cirúrgico", "UTI", "Administrativo", "Ambulatório", "Copa e Cozinha"];
const PROCEDURES = ["Limpar piso", "Recolher lixo", "Higienizar pias", "Limpar vidros", "Desinfetar superfícies"];
const PEOPLE = ["Maria Silva", "José Souza", "Francisca Oliveira", "Antônio Pereira", "Raimunda Lima"];
const STATUSES = ["Completo", "Completo", "Completo", "Completo", "Incompleto", "Não Realizado", "Cancelado"];
const two = (n: number) => String(n).padStart(2, "0");
const clock = (minutes: number, seconds = 0) =>
  `${two(Math.floor(minutes / 60) % 24)}:${two(minutes % 60)}:${two(seconds)}`;

/** Row i, as a report service would hand it over: every value already text or a number. */
function reportRow(i: number): ReportRow {
  const slot = i % 5;
  const start = 360 + slot * 80;
  const day = `${two(1 + (Math.floor(i / 250) % 28))}/${two(1 + (Math.floor(i / 7000) % 12))}/2026`;
  const delay = (i % 23) - 5;
  const length = slot ? 25 : 40;
  const took = length + (i % 11) - 5;
  return {
    agendaId: 1 + Math.floor(i / 1825),
    empresa: ["Matriz Fortaleza", "Filial Aldeota", "Filial Messejana"][i % 3],
    ambiente: `${PLACES[i % PLACES.length]} ${two(i % 50)}`,
    categoria: CATEGORIES[i % CATEGORIES.length],
    setor: SECTORS[i % SECTORS.length],
    andar: `${i % 5}º andar`,
    colaborador: `${PEOPLE[i % PEOPLE.length]} ${two(i % 40)}`,
    procedimento: PROCEDURES[i % PROCEDURES.length],
    tipo: i % 97 === 0 ? "Extra" : slot ? "Revisão" : "Principal",
    dia: day,
    inicio: clock(start).slice(0, 5),
    fim: clock(start + length).slice(0, 5),
    tempoPrevisto: `00:${two(length)}:00`,
    inicioReal: `${day} ${clock(start + delay, i % 60)}`,
    fimReal: `${day} ${clock(start + delay + took, (i * 7) % 60)}`,
    duracao: `00:${two(took)}:${two((i * 7) % 60)}`,
    diferenca: `${took < length ? "-" : "+"} 00:${two(Math.abs(took - length))}:00`,
    observacao: i % 33 === 0 ? "Vazamento na pia, avisado à manutenção" : "",
    descricao: i % 14 === 0 ? "Sala ocupada por paciente" : "",
    status: STATUSES[i % STATUSES.length],
  };
}

/** Rows in chunks of 500 (the API's keyset page), each chunk awaited as a page fetch would be. */
async function* reportRows(count: number) {
  for (let start = 0; start < count; start += 500) {
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = start; i < Math.min(count, start + 500); i++) yield reportRow(i);
  }
}

async function buildXlsx(count: number) {
  const { xlsxResponse } = await import("../app/lib/xlsx.server.ts");
  const response = await xlsxResponse("relatorio.xlsx", "Relatório", COLUMNS, reportRows(count));
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.byteLength;
  return bytes;
}

async function buildCsv(count: number) {
  const { default: Papa } = await import("papaparse");
  const output = new PassThrough();
  const drained = (async () => {
    let bytes = 0;
    for await (const chunk of output) bytes += (chunk as Buffer).length;
    return bytes;
  })();
  let chunk: ReturnType<(typeof COLUMNS)[number]["value"]>[][] = [];
  let header = true;
  const flush = async () => {
    const text = Papa.unparse(
      { fields: COLUMNS.map((column) => column.header), data: chunk },
      { header, delimiter: ";", newline: "\r\n" },
    );
    chunk = [];
    header = false;
    if (!output.write(`${text}\r\n`)) await new Promise((resolve) => output.once("drain", resolve));
  };
  for await (const row of reportRows(count)) {
    chunk.push(COLUMNS.map((column) => column.value(row)));
    if (chunk.length === 500) await flush();
  }
  if (chunk.length) await flush();
  output.end();
  return drained;
}

/** VmHWM in kB (Linux); getrusage's maxRSS elsewhere. */
function peakRssKb() {
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"));
    if (match) return Number(match[1]);
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS;
}

export type ReportExportRun = { format: "xlsx" | "csv"; rows: number; ms: number[]; bytes: number; maxRssKb: number };

async function main(format: "xlsx" | "csv", count: number, runs: number) {
  const build = format === "xlsx" ? buildXlsx : buildCsv;
  await build(500);
  const ms: number[] = [];
  let bytes = 0;
  for (let run = 0; run < runs; run++) {
    const began = performance.now();
    bytes = await build(count);
    ms.push(performance.now() - began);
  }
  const result: ReportExportRun = { format, rows: count, ms, bytes, maxRssKb: peakRssKb() };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

const [format, count, runs] = process.argv.slice(2);
if (format !== "xlsx" && format !== "csv") throw new Error("usage: report-export-child.ts xlsx|csv ROWS RUNS");
await main(format, Number(count), Number(runs ?? 1));
