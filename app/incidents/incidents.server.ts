import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { z } from "zod";

import {
  INCIDENT_EVENT_LABELS,
  INCIDENT_HANDLING_TEXTS as T,
  INCIDENT_RESOLUTION_TEXTS as R,
  INCIDENT_STATUS_LABELS,
  INCIDENT_STATUSES,
  PROOF_LABELS,
  type IncidentStatus,
} from "../../api/domain/incidents";
import { can } from "../../api/domain/roles";

import { callApi, type SignedInCaller } from "~/api.server";
import { businessDateMinute, businessLocalInput } from "~/lib/business-time.server";
import { failLoad } from "~/lib/fail-load.server";
import { dayRangeParams, idParam, optionalIdParam, pageParam } from "~/lib/list-params";
import { listActiveBranches } from "~/models/branches.server";
import { scopeQuery } from "~/models/scope.server";
import { requirePage } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

/**
 * /ocorrencias and /ocorrencias/{id} (issue 28 §4; docs/incidents.md): the incidents of the caller's scope with their
 * filters in the URL, and one incident with its timeline and the managers' forms. Plain GET and POST forms: no JS
 * needed. The API holds every rule (scope, roles, the closed state); the page shows its answers.
 */

export const INCIDENTS_PATH = "/ocorrencias";
/** The list's status choice for those not closed yet: 'aberta' and 'em_atendimento'. */
const OPEN_STATUSES = "abertas";
const PAGE_SIZE = 20;

const Incident = z.object({
  id: z.number(),
  status: z.enum(INCIDENT_STATUSES),
  atrasada: z.boolean(),
  relatos: z.number(),
  tipo: z.string(),
  prova: z.enum(["foto", "nota", "ambos"]),
  descricao: z.string(),
  ambiente: z.object({ id: z.number(), nome: z.string() }),
  filial: z.object({ id: z.number(), nome: z.string() }),
  responsavel: z.string().nullable(),
  criadaEm: z.string(),
  prazo: z.string(),
  encerradaEm: z.string().nullable(),
});
const IncidentPage = z.object({ items: z.array(Incident), total: z.number(), page: z.number(), size: z.number() });
const IncidentDetail = Incident.extend({
  foto: z.string().nullable(),
  motivoDescarte: z.string().nullable(),
  responsavelId: z.number().nullable(),
  podeAlterar: z.boolean(),
  responsaveis: z.array(z.object({ id: z.number(), nome: z.string() })),
  colaboradores: z.array(z.object({ id: z.number(), nome: z.string() })),
  limpezaSugerida: z.object({ horaIni: z.string(), horaFim: z.string() }),
  eventos: z.array(
    z.object({
      tipo: z.string(),
      detalhe: z.string(),
      autor: z.string().nullable(),
      foto: z.string().nullable(),
      em: z.string(),
    }),
  ),
});

type Incident = z.infer<typeof Incident>;

async function caller({ request, context }: LoaderFunctionArgs): Promise<SignedInCaller> {
  const auth = await requirePage(request, context, INCIDENTS_PATH);
  return { context, request, auth };
}

/** A row as the list and the detail show it: texts, not codes. */
function incidentView<Row extends Incident>(incident: Row) {
  return {
    ...incident,
    statusLabel: INCIDENT_STATUS_LABELS[incident.status],
    provaLabel: PROOF_LABELS[incident.prova],
    criadaEmText: businessDateMinute(incident.criadaEm),
    prazoText: businessDateMinute(incident.prazo),
    encerradaEmText: incident.encerradaEm ? businessDateMinute(incident.encerradaEm) : null,
    prazoInput: businessLocalInput(incident.prazo),
  };
}

/** The list's URL state: status, kind, branch, the days reported (de, ate), overdue only, page. */
export function readIncidentFilters(url: string) {
  const search = new URL(url).searchParams;
  const status = search.get("status");
  const { de, ate } = dayRangeParams(search);
  return {
    // 'abertas': not closed yet (aberta or em atendimento), the board's 'Ver todas'.
    status:
      status === OPEN_STATUSES || (INCIDENT_STATUSES as readonly string[]).includes(status ?? "")
        ? (status as IncidentStatus | typeof OPEN_STATUSES)
        : null,
    tipo: optionalIdParam(search.get("tipo")),
    filial: optionalIdParam(search.get("filial")),
    de,
    ate,
    atrasadas: search.get("atrasadas") === "1",
    pagina: pageParam(search.get("pagina")),
  };
}

const IncidentKinds = z.object({
  items: z.array(
    z.object({
      id: z.number(),
      nome: z.string(),
      prazoMinutos: z.number(),
      prova: z.enum(["foto", "nota", "ambos"]),
      ativo: z.boolean(),
    }),
  ),
});

/** The company's incident kinds (GET /ocorrencias/tipos): the list's filter, the kinds page. */
export const listIncidentKinds = (api: SignedInCaller) => callApi(api, "/ocorrencias/tipos", { schema: IncidentKinds });

export async function incidentListLoader(args: LoaderFunctionArgs) {
  const api = await caller(args);
  const filters = readIncidentFilters(args.request.url);
  // Company-wide callers choose a branch; the others' scope is their branch already.
  const companyWide = "companyId" in scopeQuery(api.auth);
  const [result, kinds, branches] = await Promise.all([
    callApi(api, "/ocorrencias", {
      schema: IncidentPage,
      query: {
        status: filters.status === OPEN_STATUSES ? undefined : (filters.status ?? undefined),
        abertas: filters.status === OPEN_STATUSES ? "1" : undefined,
        tipo: filters.tipo ?? undefined,
        filialId: companyWide ? (filters.filial ?? undefined) : undefined,
        dataIni: filters.de ?? undefined,
        dataFim: filters.ate ?? undefined,
        atrasadas: filters.atrasadas ? "1" : undefined,
        page: filters.pagina,
        size: PAGE_SIZE,
      },
    }),
    listIncidentKinds(api),
    companyWide ? listActiveBranches(api) : null,
  ]);
  if (!result.ok) return failLoad(api, result, "Não foi possível carregar as ocorrências.");
  if (!kinds.ok) return failLoad(api, kinds, "Não foi possível carregar as ocorrências.");
  if (branches && !branches.ok) return failLoad(api, branches, "Não foi possível carregar as ocorrências.");
  return {
    texts: T,
    statuses: [
      { value: OPEN_STATUSES, label: "Não encerradas" },
      ...INCIDENT_STATUSES.map((value) => ({ value, label: INCIDENT_STATUS_LABELS[value] })),
    ],
    kinds: kinds.data.items.map(({ id, nome }) => ({ id, nome })),
    branches: branches?.data ?? null,
    mayEditKinds: can(api.auth.user, "editRegisters"),
    filters,
    rows: result.data.items.map(incidentView),
    total: result.data.total,
  };
}

export async function incidentLoader(args: LoaderFunctionArgs) {
  const api = await caller(args);
  const id = idParam(args.params.id);
  const result = await callApi(api, `/ocorrencias/${id}`, { schema: IncidentDetail });
  if (!result.ok) return failLoad(api, result, "Não foi possível carregar a ocorrência.");
  const incident = result.data;
  const photoUrl = (name: string | null) => (name ? `${INCIDENTS_PATH}/${id}/fotos/${encodeURIComponent(name)}` : null);
  return {
    texts: T,
    correctiveTexts: R,
    incident: {
      ...incidentView(incident),
      fotoUrl: photoUrl(incident.foto),
      eventos: incident.eventos.map((event) => ({
        ...event,
        label: INCIDENT_EVENT_LABELS[event.tipo as keyof typeof INCIDENT_EVENT_LABELS] ?? event.tipo,
        // No author: a visitor's report, or the system's (an alert).
        autor: event.autor ?? (event.tipo === "alerta_enviado" ? "Sistema" : "Visitante"),
        // The report's photo is shown with the facts already.
        fotoUrl: event.foto === incident.foto ? null : photoUrl(event.foto),
        emText: businessDateMinute(event.em),
      })),
    },
  };
}

export type IncidentActionData = { message: string; field?: string };

/**
 * A manager's change from the detail's forms (`intent`: em_atendimento, atribuida, prazo_alterado, descartada): the
 * API writes it with its timeline event; the page comes back with a toast, or with the API's message by the form.
 */
export async function incidentAction(args: ActionFunctionArgs) {
  const api = await caller(args);
  const id = idParam(args.params.id);
  const form = await args.request.formData();
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const intent = text("intent");
  const body: Record<string, unknown> = { tipo: intent };
  if (intent === "descartada") body.motivo = text("motivo").slice(0, 2000);
  if (intent === "corretiva") {
    body.colaboradorId = Number(text("colaborador")) || 0;
    body.horaIni = text("horaIni").slice(0, 8) || undefined;
    body.horaFim = text("horaFim").slice(0, 8) || undefined;
  }
  if (intent === "atribuida") body.responsavelId = text("responsavel") ? Number(text("responsavel")) || 0 : null;
  if (intent === "prazo_alterado") {
    // The form's datetime-local is Fortaleza's wall time (UTC-3, no daylight saving).
    const local = text("prazo");
    body.prazo = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(local) ? `${local}:00-03:00` : "";
  }
  const result = await callApi(api, `/ocorrencias/${id}/eventos`, { method: "POST", json: body });
  if (result.ok)
    return redirectWithToast(args.context, `${INCIDENTS_PATH}/${id}`, {
      type: "success",
      title: intent === "corretiva" ? R.correctiveCreated : T.saved,
    });
  if (result.status === 401 || result.status === 404) return failLoad(api, result, result.message);
  const field = result.fieldErrors ? Object.keys(result.fieldErrors)[0] : undefined;
  return data<IncidentActionData>({ message: result.message, field: field ?? intent }, { status: result.status });
}

/** How many open incidents the board names; the rest are one link away. */
const BOARD_INCIDENTS = 5;

/**
 * The board's strip (issue 28 §4): the incidents reported in its period that are still open, the first few by name,
 * with the link to all of the period's on /ocorrencias. A failure leaves the board without the strip.
 */
export async function openIncidentsOf(api: SignedInCaller, period: { from: string; to: string }) {
  const result = await callApi(api, "/ocorrencias", {
    schema: IncidentPage,
    // The API's smallest page; the board names the first few.
    query: { abertas: "1", dataIni: period.from, dataFim: period.to, page: 1, size: 20 },
  });
  if (!result.ok) return result;
  return {
    ...result,
    data: {
      total: result.data.total,
      items: result.data.items.slice(0, BOARD_INCIDENTS).map((incident) => ({
        id: incident.id,
        text: `${incident.ambiente.nome}: ${incident.tipo}`,
        statusLabel: INCIDENT_STATUS_LABELS[incident.status],
        atrasada: incident.atrasada,
        href: `${INCIDENTS_PATH}/${incident.id}`,
      })),
      allHref: `${INCIDENTS_PATH}?${new URLSearchParams({ status: OPEN_STATUSES, de: period.from, ate: period.to })}`,
    },
  };
}
