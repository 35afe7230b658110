import type { AppLoadContext } from "@remix-run/node";

import { INT32_MAX } from "../../api/domain/environments";
import { SCHEDULE_TEXTS as T } from "../../api/domain/schedule-texts";

import type { SignedInCaller } from "~/api.server";
import { failLoad } from "~/lib/fail-load.server";
import { invariantResponse } from "~/lib/invariant";
import { listBranchEnvironments, listSchedulableUsers } from "~/models/agendas.server";
import { loadActiveBranches } from "~/models/branches.server";
import { scopeQuery } from "~/models/scope.server";
import { requirePage } from "~/session.server";

export const AGENDAMENTOS_PATH = "/agendamentos";

/** What an /agendamentos route is handed by its route file: Remix's arguments. */
export type AgendamentosArgs = {
  request: Request;
  context: AppLoadContext;
  params: Record<string, string | undefined>;
};

/**
 * Every /agendamentos route: the page's guard (PAGES: manageRegisters = roleId 1, 2, 3 or none, spec 001 §2), the
 * user as an API caller, and whether they may register (§2.1: 'shown only when the user has a main company').
 * Company-wide users have it in empresaPrincipal; a branch-level user (roleId 3 or none) works for a branch, which
 * always belongs to a main company, and registers in that branch, locked (§2.2; issue 27, docs/agendamentos.md).
 */
export async function requireAgendamentos({ request, context }: AgendamentosArgs) {
  const auth = await requirePage(request, context, AGENDAMENTOS_PATH);
  const api: SignedInCaller = { context, request, auth };
  const canRegister = auth.empresaPrincipal.length > 0 || "filialId" in scopeQuery(auth);
  return { api, auth, canRegister };
}

/** A URL id: a PostgreSQL integer (1 to 2³¹ − 1) in plain digits, else 404 with `message`. */
export function idOf(text: string | undefined | null, message: string) {
  const id = text && /^\d{1,10}$/.test(text) ? Number(text) : 0;
  invariantResponse(id >= 1 && id <= INT32_MAX, message, { status: 404 });
  return id;
}

/** 'yyyy-MM-dd' from the URL (?dia=), or null. */
export function dayParam(url: URL) {
  const dia = url.searchParams.get("dia") ?? "";
  return /^\d{4}-\d{2}-\d{2}$/.test(dia) ? dia : null;
}

/** 'dd/MM/yyyy' of 'yyyy-MM-dd' (the edit modal's title). */
export const brDate = (iso: string) => iso.split("-").reverse().join("/");

export type Choice = { id: number; nome: string };

/**
 * The register tab's data: the active branches in scope and the collaborators who may be scheduled (listaAsg). The tab
 * is blocked (§2.1) unless both exist; a collaborator counts only in an active branch.
 */
export async function loadSchedulingChoices(api: SignedInCaller) {
  const branches = await loadActiveBranches(api);
  const users = await listSchedulableUsers(api, scopeQuery(api.auth));
  if (!users.ok) return failLoad(api, users, T.loadFailed);
  const active = new Set(branches.map((branch) => branch.id));
  const asgs = users.data.filter((user) => active.has(user.companyId));
  return { branches, asgs, blocked: branches.length === 0 || asgs.length === 0 };
}

/** The 'Ambiente' and 'Colaborador' choices of one branch. */
export async function loadBranchChoices(
  api: SignedInCaller,
  branchId: number,
  asgs: { id: number; nome: string; companyId: number }[],
) {
  const environments = await listBranchEnvironments(api, branchId);
  if (!environments.ok) return failLoad(api, environments, T.loadFailed);
  return {
    environments: environments.data.map((item): Choice => ({ id: item.ID, nome: item.AMBIENTE_NOME })),
    users: asgs.filter((user) => user.companyId === branchId).map((user): Choice => ({ id: user.id, nome: user.nome })),
  };
}
