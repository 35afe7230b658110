import { data, redirect } from "@remix-run/node";
import { z } from "zod";

import { businessToday } from "../../api/domain/schedule-expansion";
import { toSaveAgendaInput } from "../../api/domain/schedule-payloads";
import { MAX_SAVE_ITEMS } from "../../api/domain/schedule-rules";
import { SCHEDULE_TEXTS as T } from "../../api/domain/schedule-texts";

import type { SignedInCaller } from "~/api.server";
import { failLoad } from "~/lib/fail-load.server";
import { listBranchEnvironments, saveAgendas } from "~/models/agendas.server";
import { scopeQuery, startingBranchId } from "~/models/scope.server";
import { signOutOnUnauthorized } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

import {
  AGENDAMENTOS_PATH,
  loadBranchChoices,
  loadSchedulingChoices,
  requireAgendamentos,
  type AgendamentosArgs,
} from "./agendamentos.server";
import {
  BLANK_TOAST,
  checkItem,
  checkMain,
  emptyItemValues,
  itemValuesOf,
  type DraftItem,
  type FormToastData,
  type ItemErrors,
  type ItemValues,
} from "./item-form";
import { INTENT, ITEMS_FIELD, SHOWN_BRANCH_FIELD } from "./register-fields";

export const REGISTER_PATH = `${AGENDAMENTOS_PATH}/cadastrar`;

/** What the register action answers when it re-renders the page (every step but the final redirect). */
export type RegisterActionData = {
  step: "main" | "item";
  items: DraftItem[];
  colaborador: string;
  values?: ItemValues;
  errors?: ItemErrors;
  toast?: FormToastData | null;
  /** Without JS: the line whose 'Remover' asks 'Tem certeza que deseja remover?'. */
  confirmRemove?: number;
};

const branchIdOf = (value: unknown) => (typeof value === "string" && /^\d{1,10}$/.test(value) ? Number(value) : null);

/**
 * 'Cadastrar agendamentos' (spec 001 §2.1, §2.2): blocked without an active branch and a schedulable collaborator; the
 * branch is ?empresa= (else the user's own, else the main company: `startingBranchId`), locked for branch-level users.
 */
export async function registerLoader(args: AgendamentosArgs) {
  const { api, auth, canRegister } = await requireAgendamentos(args);
  if (!canRegister) throw redirect(AGENDAMENTOS_PATH);
  const { branches, asgs, blocked } = await loadSchedulingChoices(api);
  const today = businessToday();
  const scope = scopeQuery(auth);
  const locked = !("companyId" in scope);
  if (blocked) return { blocked, texts: { blocked: T.registerBlocked } } as const;
  const asked = branchIdOf(new URL(args.request.url).searchParams.get("empresa"));
  const branchId = startingBranchId(branches, scope, locked ? null : asked);
  const { environments, users } = await loadBranchChoices(api, branchId, asgs);
  return { blocked: false, locked, branches, branchId, environments, users, today } as const;
}

const Slot = z.object({ horaIni: z.string().max(8), horaFim: z.string().max(8) });
const DraftItems = z
  .array(
    z.object({
      ambienteId: z.number().int().positive(),
      nomeAmbiente: z.string().max(300),
      item: z.object({
        periodicity: z.union([
          z.object({ kind: z.literal("Semanal"), weekdays: z.array(z.number().int().min(0).max(6)).max(7) }),
          z.object({ kind: z.literal("12X") }),
        ]),
        main: Slot,
        revisions: z.array(Slot).max(19),
        vigIni: z.string().max(10),
        vigFim: z.string().max(10),
        revisionPhotos: z.boolean(),
      }),
    }),
  )
  .max(MAX_SAVE_ITEMS);

/** The items table as the hidden field carries it; anything unreadable is no items (the API checks them again). */
function draftItemsOf(form: FormData): DraftItem[] {
  const text = form.get(ITEMS_FIELD);
  if (typeof text !== "string" || !text) return [];
  try {
    const parsed = DraftItems.safeParse(JSON.parse(text));
    return parsed.success ? (parsed.data as DraftItem[]) : [];
  } catch {
    return [];
  }
}

/**
 * One action for the form's steps (a hidden-field draft: docs/agendamentos.md). Without JS each button posts here and
 * the page comes back at the right step; with JS only 'Cadastrar' posts (the item modal works in place), and a
 * refusal comes back the same way.
 *
 * - carregar, or any post for a company other than the one shown: the page for that company (its environments and
 *   collaborators; the items, which were the other branch's, are dropped; said in a toast when not asked for);
 * - abrir-item / cancelar-item / horarios (a new cleanings count): the item step opened, closed, redrawn;
 * - adicionar-item: the item checked (api/domain rules); refused, the step comes back with its messages;
 * - remover-item:{n}: 'Tem certeza que deseja remover?' for that line (no JS; with JS a dialog asks), and
 *   confirmar-remocao:{n}: that line leaves the table;
 * - cadastrar: company, collaborator, at least one item, then POST agendas/v2/saveAgenda with every item.
 */
export async function registerAction(args: AgendamentosArgs) {
  const { api } = await requireAgendamentos(args);
  const form = await args.request.formData();
  const intent = String(form.get("intent") ?? INTENT.save);
  const empresa = branchIdOf(form.get("empresa"));
  const shown = branchIdOf(form.get(SHOWN_BRANCH_FIELD));
  if (intent === INTENT.load || (empresa !== null && shown !== null && empresa !== shown)) {
    const page = `${REGISTER_PATH}${empresa ? `?empresa=${empresa}` : ""}`;
    if (intent === INTENT.load) return redirect(page);
    // The company was changed without 'Carregar' (no JS): its collaborators and environments are others, say so.
    return redirectWithToast(args.context, page, { type: "info", title: T.companyChanged });
  }
  const today = businessToday();
  const items = draftItemsOf(form);
  const colaborador = String(form.get("colaborador") ?? "");
  const reply = (answer: Omit<RegisterActionData, "items" | "colaborador">, status = 200) =>
    data<RegisterActionData>({ items, colaborador, ...answer }, { status });

  if (intent === INTENT.openItem) return reply({ step: "item", values: emptyItemValues(today) });
  if (intent === INTENT.cancelItem) return reply({ step: "main" });
  if (intent === INTENT.pairs) return reply({ step: "item", values: itemValuesOf(form) });
  const line = (prefix: string) => {
    const index = intent.startsWith(prefix) ? Number(intent.slice(prefix.length)) : -1;
    return Number.isInteger(index) && index >= 0 && index < items.length ? index : null;
  };
  const asked = line(INTENT.removeItem);
  if (asked !== null) return reply({ step: "main", confirmRemove: asked });
  const removed = line(INTENT.confirmRemove);
  if (removed !== null)
    return data<RegisterActionData>({ step: "main", colaborador, items: items.filter((_, at) => at !== removed) });
  if (intent === INTENT.addItem) {
    const values = itemValuesOf(form);
    // Without JS the pairs are redrawn by 'Atualizar horários': a count changed without it gets the new pairs and
    // a word, rather than an item saved with pairs the person did not see.
    const drawn = [...form.keys()].filter((name) => /^inicio-\d+$/.test(name)).length;
    if (drawn !== values.inicio.length)
      return reply({ step: "item", values, toast: { type: "info", title: T.pairsRedrawn } });
    const checked = checkItem(values, { mode: "create", today });
    if (!checked.ok) return reply({ step: "item", values, errors: checked.errors, toast: checked.toast }, 400);
    const environments = await environmentNames(api, shown);
    const nomeAmbiente = environments.find((choice) => choice.id === checked.ambiente)?.nome;
    if (!nomeAmbiente)
      return reply({ step: "item", values, errors: { ambiente: [T.environmentRequired] }, toast: BLANK_TOAST }, 400);
    return data<RegisterActionData>({
      step: "main",
      colaborador,
      items: [...items, { ambienteId: checked.ambiente, nomeAmbiente, item: checked.item }],
    });
  }

  // cadastrar
  const errors = checkMain({ empresa: String(form.get("empresa") ?? ""), colaborador, itens: items.length });
  if (Object.keys(errors).length) return reply({ step: "main", errors, toast: BLANK_TOAST }, 400);
  const result = await saveAgendas(
    api,
    items.map((draft) =>
      toSaveAgendaInput(draft.item, {
        Id_EmpresasFilial: empresa!,
        Id_Environments: draft.ambienteId,
        Id_Users: Number(colaborador),
      }),
    ),
  );
  if (!result.ok) {
    await signOutOnUnauthorized(args.request, args.context, result.status);
    const toast: FormToastData =
      result.status === 400 ? { type: "error", title: result.message } : { type: "error", title: T.createFailed };
    return reply({ step: "main", toast }, result.status === 400 ? 400 : 500);
  }
  return redirectWithToast(args.context, AGENDAMENTOS_PATH, { type: "success", title: T.created });
}

/** The names of the shown branch's environments (the items table shows the name; the id is what is saved). */
async function environmentNames(api: SignedInCaller, branchId: number | null) {
  if (branchId === null) return [];
  const result = await listBranchEnvironments(api, branchId);
  if (!result.ok) return failLoad(api, result, T.loadFailed);
  return result.data.map((item) => ({ id: item.ID, nome: item.AMBIENTE_NOME }));
}
