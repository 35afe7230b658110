import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { addDays } from "date-fns";
import type { z } from "zod";

import { INCIDENT_STATUS_LABELS, type IncidentStatus } from "../../api/domain/incidents";
import {
  ANSWER_LABELS,
  ANSWERS,
  INSPECTION_LIMITS,
  INSPECTION_TEXTS as T,
  percent,
  SCORE_FORMULA,
  type Answer,
} from "../../api/domain/inspections";
import { can } from "../../api/domain/roles";
import { businessToday } from "../../api/domain/schedule-expansion";
import type { Inspection } from "../../api/routes/inspections";

import type { SignedInCaller } from "~/api.server";
import { listIncidentKinds } from "~/incidents/incidents.server";
import { businessDateMinute } from "~/lib/business-time.server";
import { failLoad } from "~/lib/fail-load.server";
import { dayRangeParams, idParam, optionalIdParam, pageParam, textParam } from "~/lib/list-params";
import { listSchedulableUsers } from "~/models/agendas.server";
import { listActiveBranches } from "~/models/branches.server";
import {
  findInspection,
  inspectionForm,
  inspectionScores,
  listInspectableRooms,
  listInspections,
  openFailureIncident,
  submitInspection,
} from "~/models/inspections.server";
import { scopeQuery } from "~/models/scope.server";
import { requirePage } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

/**
 * /inspecoes, /inspecoes/nova, /inspecoes/nova/{ambienteId} and /inspecoes/{id} (issue 29; docs/inspections.md): the
 * inspections of the caller's scope with their filters and scores in the URL, the rooms to inspect, the inspection
 * form (a plain multipart form: radios, notes, file inputs; no JS needed) and one inspection with its formula, its
 * failures and what a re-inspection changed. The API holds every rule; the pages show its answers.
 */

export const INSPECTIONS_PATH = "/inspecoes";
const PAGE_SIZE = 20;
const SCORE_GROUPS = ["ambiente", "filial", "semana"] as const;
const SCORE_GROUP_LABELS = { ambiente: "Ambiente", filial: "Filial", semana: "Semana" } as const;
/** The scores' default period: the last 30 days. */
const DEFAULT_DAYS = 30;

async function caller({ request, context }: LoaderFunctionArgs, path: "/inspecoes" | "/inspecoes/nova") {
  const auth = await requirePage(request, context, path);
  return { context, request, auth } satisfies SignedInCaller;
}

const dateText = (iso: string) => businessDateMinute(iso);
const resultLabel = (aprovada: boolean) => (aprovada ? T.passed : T.failed);

/** The list's URL state: branch, room, the days inspected (de, ate), result, the scores' grouping, page. */
export function readInspectionFilters(url: string) {
  const search = new URL(url).searchParams;
  const { de, ate } = dayRangeParams(search);
  const resultado = search.get("resultado");
  const agrupar = search.get("agrupar");
  return {
    filial: optionalIdParam(search.get("filial")),
    ambiente: optionalIdParam(search.get("ambiente")),
    de,
    ate,
    resultado: resultado === "aprovada" || resultado === "reprovada" ? (resultado as "aprovada" | "reprovada") : null,
    agrupar: (SCORE_GROUPS as readonly string[]).includes(agrupar ?? "")
      ? (agrupar as (typeof SCORE_GROUPS)[number])
      : "ambiente",
    pagina: pageParam(search.get("pagina")),
  };
}

export type InspectionFilters = ReturnType<typeof readInspectionFilters>;

/** The list's API query from its URL state: the page, its downloads (every page) and the scores read the same. */
export function inspectionQuery(api: SignedInCaller, filters: InspectionFilters) {
  // Company-wide callers choose a branch; the others' scope is their branch already.
  const companyWide = "companyId" in scopeQuery(api.auth);
  return {
    companyWide,
    query: {
      filialId: companyWide ? (filters.filial ?? undefined) : undefined,
      ambienteId: filters.ambiente ?? undefined,
      dataIni: filters.de ?? undefined,
      dataFim: filters.ate ?? undefined,
      resultado: filters.resultado ?? undefined,
    },
  };
}

/** The list's caller and URL state (the page and its downloads). */
export async function inspectionView(args: LoaderFunctionArgs) {
  const api = await caller(args, INSPECTIONS_PATH);
  const filters = readInspectionFilters(args.request.url);
  return { api, filters, ...inspectionQuery(api, filters) };
}

/** A row as the list and the downloads write it. */
export const inspectionLine = (row: z.infer<typeof Inspection>) => ({
  ...row,
  notaText: percent(row.nota),
  notaMinimaText: percent(row.notaMinima),
  resultado: resultLabel(row.aprovada),
  emText: dateText(row.em),
});

export async function inspectionListLoader(args: LoaderFunctionArgs) {
  const { api, filters, companyWide, query } = await inspectionView(args);
  const filialId = query.filialId;
  // The scores read the list's period, or the last 30 days.
  const scoreTo = filters.ate ?? businessToday();
  // At most the API's year for the scores, whatever the list's period.
  const daysBefore = (days: number) =>
    addDays(new Date(`${scoreTo}T12:00:00Z`), -days)
      .toISOString()
      .slice(0, 10);
  const scoreFrom = [filters.de ?? daysBefore(DEFAULT_DAYS - 1), daysBefore(365)].sort().pop()!;
  const [page, scores, branches] = await Promise.all([
    listInspections(api, { ...query, page: filters.pagina, size: PAGE_SIZE }),
    inspectionScores(api, { agrupar: filters.agrupar, dataIni: scoreFrom, dataFim: scoreTo, filialId }),
    companyWide ? listActiveBranches(api) : null,
  ]);
  const failed = "Não foi possível carregar as inspeções.";
  if (!page.ok) return failLoad(api, page, failed);
  // The scores are an extra: a refusal (or an outage) leaves the list without them.
  if (!scores.ok && scores.status === 401) return failLoad(api, scores, failed);
  if (branches && !branches.ok) return failLoad(api, branches, failed);
  return {
    texts: T,
    filters,
    branches: branches?.data ?? null,
    mayInspect: can(api.auth.user, "inspect"),
    mayEditChecklists: can(api.auth.user, "editRegisters"),
    rows: page.data.items.map(inspectionLine),
    downloadQuery: new URL(args.request.url).search,
    total: page.data.total,
    scores: {
      groups: SCORE_GROUPS.map((value) => ({ value, label: SCORE_GROUP_LABELS[value] })),
      label: SCORE_GROUP_LABELS[filters.agrupar],
      period: `${scoreFrom.split("-").reverse().join("/")} a ${scoreTo.split("-").reverse().join("/")}`,
      rows: (scores.ok ? scores.data.items : []).map((row) => ({
        ...row,
        nome: filters.agrupar === "semana" ? `Semana de ${row.nome.split("-").reverse().join("/")}` : row.nome,
        mediaText: percent(row.media),
      })),
    },
  };
}

/** /inspecoes/nova: the rooms of the scope whose category has a checklist (name search, branch), to inspect. */
export async function inspectionRoomsLoader(args: LoaderFunctionArgs) {
  const api = await caller(args, "/inspecoes/nova");
  const search = new URL(args.request.url).searchParams;
  const q = textParam(search.get("q"), 100);
  const filial = optionalIdParam(search.get("filial"));
  const pagina = pageParam(search.get("pagina"));
  const companyWide = "companyId" in scopeQuery(api.auth);
  const [rooms, branches] = await Promise.all([
    listInspectableRooms(api, {
      q: q || undefined,
      filialId: companyWide ? (filial ?? undefined) : undefined,
      page: pagina,
      size: PAGE_SIZE,
    }),
    companyWide ? listActiveBranches(api) : null,
  ]);
  if (!rooms.ok) return failLoad(api, rooms, "Não foi possível carregar os ambientes.");
  if (branches && !branches.ok) return failLoad(api, branches, "Não foi possível carregar os ambientes.");
  return {
    texts: T,
    q,
    filial,
    pagina,
    branches: branches?.data ?? null,
    mayEditChecklists: can(api.auth.user, "editRegisters"),
    rows: rooms.data.items.map((row) => ({
      ...row,
      ultima: row.ultima
        ? { ...row.ultima, notaText: percent(row.ultima.nota), emText: dateText(row.ultima.em) }
        : null,
    })),
    total: rooms.data.total,
  };
}

/** /inspecoes/nova/{ambienteId}[?reinspecao=id]: the room's checklist as a form; 409 (no checklist) as a message. */
export async function inspectionFormLoader(args: LoaderFunctionArgs) {
  const api = await caller(args, "/inspecoes/nova");
  const environmentId = idParam(args.params.ambienteId);
  const reinspecao = optionalIdParam(new URL(args.request.url).searchParams.get("reinspecao")) ?? undefined;
  const result = await inspectionForm(api, environmentId, reinspecao);
  // No checklist (409), or a re-inspection of another room's inspection (400): the message, not an error page.
  if (!result.ok && (result.status === 409 || result.status === 400))
    return { texts: T, form: null, message: result.message };
  if (!result.ok) return failLoad(api, result, "Não foi possível carregar o formulário de inspeção.");
  const form = result.data;
  const before = new Map(form.anterior?.respostas.map((answer) => [answer.chave, answer]) ?? []);
  return {
    texts: T,
    message: null,
    form: {
      ...form,
      notaMinimaText: percent(form.notaMinima),
      anterior: form.anterior ? { id: form.anterior.id, notaText: percent(form.anterior.nota) } : null,
      itens: form.itens.map((item) => {
        const previous = before.get(item.chave);
        return {
          ...item,
          antes: previous ? ANSWER_LABELS[previous.resposta] : null,
          antesObservacao: previous?.observacao ?? "",
        };
      }),
    },
    answers: ANSWERS.map((value) => ({ value, label: ANSWER_LABELS[value] })),
    photosPerItem: INSPECTION_LIMITS.photosPerItem,
    photosPerInspection: INSPECTION_LIMITS.photosPerInspection,
  };
}

export type InspectionFormActionData = {
  message: string;
  /** The answers and notes sent, so the form comes back as it was (file inputs cannot be refilled). */
  values: Record<string, string>;
};

/** 'Registrar inspeção': the browser's multipart form passed on to the API; its message by the form otherwise. */
export async function inspectionFormAction(args: ActionFunctionArgs) {
  const api = await caller(args, "/inspecoes/nova");
  const environmentId = idParam(args.params.ambienteId);
  const sent = await args.request.formData();
  const form = new FormData();
  const values: Record<string, string> = {};
  for (const [name, value] of sent.entries()) {
    if (!/^(versao|reinspecaoDe|observacao|(resposta|observacao|fotos)_\d{1,10})$/.test(name)) continue;
    if (typeof value === "string") {
      values[name] = value.slice(0, 2000);
      form.append(name, values[name]!);
    } else if (value.size > 0) form.append(name, value, value.name);
  }
  form.set("ambienteId", String(environmentId));
  const result = await submitInspection(api, form);
  if (result.ok)
    return redirectWithToast(args.context, `${INSPECTIONS_PATH}/${result.data.id}`, {
      type: "success",
      title: T.submitted,
      description: `Nota ${percent(result.data.nota)}: ${resultLabel(result.data.aprovada).toLowerCase()}.`,
    });
  if (result.status === 401 || result.status === 404) return failLoad(api, result, result.message);
  return data<InspectionFormActionData>({ message: result.message, values }, { status: result.status });
}

export async function inspectionLoader(args: LoaderFunctionArgs) {
  const api = await caller(args, INSPECTIONS_PATH);
  const id = idParam(args.params.id);
  const result = await findInspection(api, id);
  if (!result.ok) return failLoad(api, result, "Não foi possível carregar a inspeção.");
  const inspection = result.data;
  const mayInspect = can(api.auth.user, "inspect");
  const mayHandle = can(api.auth.user, "handleIncidents");
  const failures = inspection.respostas.some((answer) => answer.resposta === "nao_conforme" && !answer.ocorrencia);
  const [kinds, asgs] = await Promise.all([
    mayInspect && failures ? listIncidentKinds(api) : null,
    mayHandle && failures ? listSchedulableUsers(api, { filialId: inspection.filial.id }) : null,
  ]);
  const photoUrl = (name: string) => `${INSPECTIONS_PATH}/${id}/fotos/${encodeURIComponent(name)}`;
  return {
    texts: T,
    formula: SCORE_FORMULA,
    mayInspect,
    kinds: kinds?.ok ? kinds.data.items.filter((kind) => kind.ativo).map(({ id, nome }) => ({ id, nome })) : [],
    asgs: asgs?.ok ? asgs.data.map((person) => ({ id: person.id, nome: person.nome })) : [],
    inspection: {
      ...inspection,
      notaText: percent(inspection.nota),
      notaMinimaText: percent(inspection.notaMinima),
      resultado: resultLabel(inspection.aprovada),
      emText: dateText(inspection.em),
      respostas: inspection.respostas.map((answer) => ({
        ...answer,
        label: ANSWER_LABELS[answer.resposta as Answer],
        ocorrenciaStatus: answer.ocorrencia
          ? (INCIDENT_STATUS_LABELS[answer.ocorrencia.status as IncidentStatus] ?? answer.ocorrencia.status)
          : null,
        fotoUrls: answer.fotos.map(photoUrl),
      })),
      reinspecoes: inspection.reinspecoes.map((row) => ({
        ...row,
        notaText: percent(row.nota),
        emText: dateText(row.em),
      })),
      anterior: inspection.anterior
        ? {
            ...inspection.anterior,
            notaText: percent(inspection.anterior.nota),
            emText: dateText(inspection.anterior.em),
            mudancas: inspection.anterior.mudancas.map((change) => ({
              ...change,
              antesLabel: change.antes ? ANSWER_LABELS[change.antes] : "Item novo",
              agoraLabel: change.agora ? ANSWER_LABELS[change.agora] : "Item removido",
              mudou: change.antes !== change.agora,
            })),
          }
        : null,
    },
  };
}

export type InspectionActionData = { message: string; itemId: number };

/** A failure's 'Abrir ocorrência' (with, for managers, a corrective cleaning by an ASG of the branch). */
export async function inspectionAction(args: ActionFunctionArgs) {
  const api = await caller(args, INSPECTIONS_PATH);
  const id = idParam(args.params.id);
  const form = await args.request.formData();
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const itemId = optionalIdParam(text("item")) ?? 0;
  const colaborador = optionalIdParam(text("colaborador"));
  const result = await openFailureIncident(api, id, itemId, {
    tipoId: optionalIdParam(text("tipo")) ?? 0,
    ...(colaborador ? { colaboradorId: colaborador } : {}),
  });
  if (result.ok)
    return redirectWithToast(args.context, `${INSPECTIONS_PATH}/${id}`, {
      type: "success",
      title: colaborador ? T.correctiveCreated : T.incidentOpened,
      description: `Ocorrência nº ${result.data.ocorrenciaId}`,
    });
  if (result.status === 401 || (result.status === 404 && !itemId)) return failLoad(api, result, result.message);
  return data<InspectionActionData>({ message: result.message, itemId }, { status: result.status });
}
