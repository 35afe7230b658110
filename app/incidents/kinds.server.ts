import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";

import { INCIDENT_KIND_TEXTS as T, PROOF_LABELS } from "../../api/domain/incidents";

import { callApi } from "~/api.server";
import { failLoad } from "~/lib/fail-load.server";
import { requirePage } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

import { listIncidentKinds } from "./incidents.server";

/**
 * /ocorrencias/tipos (issue 28; docs/incidents.md 'Kinds'): the main company's administrators keep the kinds visitors
 * choose from, each with its deadline (in hours on the page, minutes in the API) and the proof resolving needs. One
 * plain form per kind and one for a new kind: no JS needed; the API holds every rule.
 */

export const INCIDENT_KINDS_PATH = "/ocorrencias/tipos";

async function caller({ request, context }: LoaderFunctionArgs) {
  const auth = await requirePage(request, context, INCIDENT_KINDS_PATH);
  return { context, request, auth };
}

/** '2', '1,5', '0.25' hours as minutes; 0 (refused by the API with its message) when not a number. */
const minutesOf = (hours: string) => Math.round((Number(hours.replace(",", ".")) || 0) * 60);
const hoursOf = (minutes: number) => String(Math.round((minutes / 60) * 100) / 100).replace(".", ",");

export async function incidentKindsLoader(args: LoaderFunctionArgs) {
  const api = await caller(args);
  const result = await listIncidentKinds(api);
  if (!result.ok) return failLoad(api, result, "Não foi possível carregar os tipos de ocorrência.");
  return {
    texts: T,
    proofs: Object.entries(PROOF_LABELS).map(([value, label]) => ({ value, label })),
    kinds: result.data.items.map((kind) => ({ ...kind, prazoHoras: hoursOf(kind.prazoMinutos) })),
  };
}

export type IncidentKindActionData = { message: string; id: number | null };

export async function incidentKindsAction(args: ActionFunctionArgs) {
  const api = await caller(args);
  const form = await args.request.formData();
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const id = Number(text("id")) || null;
  const body = {
    nome: text("nome").slice(0, 200),
    prazoMinutos: minutesOf(text("prazoHoras").slice(0, 20)),
    prova: text("prova"),
    ativo: id === null || form.get("ativo") === "1",
  };
  const result = id
    ? await callApi(api, `/ocorrencias/tipos/${id}`, { method: "PUT", json: body })
    : await callApi(api, "/ocorrencias/tipos", { method: "POST", json: body });
  if (result.ok)
    return redirectWithToast(args.context, INCIDENT_KINDS_PATH, { type: "success", title: id ? T.saved : T.created });
  if (result.status === 401 || result.status === 404) return failLoad(api, result, result.message);
  return data<IncidentKindActionData>({ message: result.message, id }, { status: result.status });
}
