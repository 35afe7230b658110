import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";

import { INSPECTION_LIMITS as L, INSPECTION_TEXTS as T, percent } from "../../api/domain/inspections";

import type { SignedInCaller } from "~/api.server";
import { businessDateMinute } from "~/lib/business-time.server";
import { failLoad } from "~/lib/fail-load.server";
import { idParam } from "~/lib/list-params";
import { listActiveBranches } from "~/models/branches.server";
import { listBranchCatalogue } from "~/models/catalogues.server";
import {
  createChecklist,
  duplicateChecklist,
  findChecklist,
  listChecklists,
  readPassMark,
  savePassMark,
  updateChecklist,
} from "~/models/inspections.server";
import { requirePage } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

/**
 * /inspecoes/checklists, /inspecoes/checklists/cadastrar and /inspecoes/checklists/{id}/editar (issue 29 §1;
 * docs/inspections.md): the main company's administrators keep one checklist per room category and the pass mark.
 * The item rows are plain inputs (text, weight, procedure, 'Remover'); 'Mais itens' posts the form back with five more
 * empty rows, so no JS is needed. A new checklist starts by choosing its branch (its categories and procedures).
 */

export const CHECKLISTS_PATH = "/inspecoes/checklists";
const BLANK_ROWS = 3;
const MORE_ROWS = 5;

async function caller({ request, context }: LoaderFunctionArgs): Promise<SignedInCaller> {
  const auth = await requirePage(request, context, CHECKLISTS_PATH);
  return { context, request, auth };
}

export type ItemRow = { chave: string; texto: string; peso: string; procedimento: string };
const blank = (count: number): ItemRow[] =>
  Array.from({ length: count }, () => ({ chave: "", texto: "", peso: "3", procedimento: "" }));

export async function checklistListLoader(args: LoaderFunctionArgs) {
  const api = await caller(args);
  const [list, mark] = await Promise.all([listChecklists(api), readPassMark(api)]);
  if (!list.ok) return failLoad(api, list, "Não foi possível carregar os checklists.");
  if (!mark.ok) return failLoad(api, mark, "Não foi possível carregar os checklists.");
  return {
    texts: T,
    notaMinima: String(mark.data.notaMinima).replace(".", ","),
    notaMinimaText: percent(mark.data.notaMinima),
    rows: list.data.items.map((row) => ({ ...row, atualizadoEmText: businessDateMinute(row.atualizadoEm) })),
  };
}

export type PassMarkActionData = { message: string };

/** 'Salvar nota mínima' ('85', '87,5'). */
export async function checklistListAction(args: ActionFunctionArgs) {
  const api = await caller(args);
  const form = await args.request.formData();
  const raw = String(form.get("notaMinima") ?? "")
    .slice(0, 20)
    .replace(",", ".")
    .trim();
  const result = await savePassMark(api, raw === "" ? Number.NaN : Number(raw));
  if (result.ok) return redirectWithToast(args.context, CHECKLISTS_PATH, { type: "success", title: T.passMarkSaved });
  if (result.status === 401) return failLoad(api, result, result.message);
  return data<PassMarkActionData>({ message: result.message }, { status: result.status });
}

/** The branch's categories (free ones, plus the checklist's own) and procedures, for the form's selects. */
async function branchChoices(api: SignedInCaller, branchId: number, ownCategory: number | null) {
  const [categories, procedures, checklists] = await Promise.all([
    listBranchCatalogue(api, "categorias", branchId),
    listBranchCatalogue(api, "procedimentos", branchId),
    listChecklists(api),
  ]);
  if (!categories.ok) return failLoad(api, categories, "Não foi possível carregar as categorias.");
  if (!procedures.ok) return failLoad(api, procedures, "Não foi possível carregar os procedimentos.");
  if (!checklists.ok) return failLoad(api, checklists, "Não foi possível carregar os checklists.");
  const taken = new Set(checklists.data.items.map((row) => row.categoria.id));
  return {
    categories: categories.data
      .filter((row) => row.id === ownCategory || !taken.has(row.id))
      .map((row) => ({ id: row.id, nome: row.name })),
    procedures: procedures.data.map((row) => ({ id: row.id, nome: row.name })),
  };
}

export async function checklistCreateLoader(args: LoaderFunctionArgs) {
  const api = await caller(args);
  const branches = await listActiveBranches(api);
  if (!branches.ok) return failLoad(api, branches, "Não foi possível carregar as filiais.");
  const filial = Number(new URL(args.request.url).searchParams.get("filial")) || null;
  const branch = branches.data.find((row) => row.id === filial) ?? null;
  return {
    texts: T,
    branches: branches.data,
    branch,
    choices: branch ? await branchChoices(api, branch.id, null) : null,
    checklist: { nome: "", categoria: "", itens: blank(MORE_ROWS) },
    weights: Array.from({ length: L.weightMax }, (_, index) => index + 1),
  };
}

export async function checklistEditLoader(args: LoaderFunctionArgs) {
  const api = await caller(args);
  const id = idParam(args.params.id);
  const [found, branches] = await Promise.all([findChecklist(api, id), listActiveBranches(api)]);
  if (!found.ok) return failLoad(api, found, "Não foi possível carregar o checklist.");
  if (!branches.ok) return failLoad(api, branches, "Não foi possível carregar as filiais.");
  const checklist = found.data;
  return {
    texts: T,
    id,
    versao: checklist.versao,
    branch: checklist.filial,
    otherBranches: branches.data.filter((row) => row.id !== checklist.filial.id),
    choices: await branchChoices(api, checklist.filial.id, checklist.categoria.id),
    checklist: {
      nome: checklist.nome,
      categoria: String(checklist.categoria.id),
      itens: [
        ...checklist.itens.map((item) => ({
          chave: String(item.chave),
          texto: item.texto,
          peso: String(item.peso),
          procedimento: item.procedimento ? String(item.procedimento.id) : "",
        })),
        ...blank(BLANK_ROWS),
      ],
    },
    weights: Array.from({ length: L.weightMax }, (_, index) => index + 1),
  };
}

export type ChecklistFormActionData = {
  message: string | null;
  values: { nome: string; categoria: string; itens: ItemRow[] };
};

/** The form's rows as sent, in order; at most twice the item limit (the API refuses past the limit). */
function sentRows(form: FormData) {
  const text = (name: string) => String(form.get(name) ?? "").slice(0, 400);
  const count = Math.min(Number(text("linhas")) || 0, L.itemsMax * 2);
  const rows: (ItemRow & { remover: boolean })[] = [];
  for (let index = 0; index < count; index++)
    rows.push({
      chave: text(`chave_${index}`),
      texto: text(`texto_${index}`),
      peso: text(`peso_${index}`),
      procedimento: text(`procedimento_${index}`),
      remover: form.get(`remover_${index}`) === "1",
    });
  return { nome: text("nome"), categoria: text("categoria"), rows };
}

/**
 * 'Salvar' (a new checklist, or an edit: the API makes the next version when the items changed), 'Mais itens' (the
 * same form back with more empty rows) and 'Duplicar' (to another branch).
 */
export async function checklistFormAction(args: ActionFunctionArgs) {
  const api = await caller(args);
  const id = args.params.id ? idParam(args.params.id) : null;
  const form = await args.request.formData();
  const intent = String(form.get("intent") ?? "");
  if (intent === "duplicar" && id) {
    const result = await duplicateChecklist(api, id, Number(form.get("filial")) || 0);
    if (result.ok)
      return redirectWithToast(args.context, `${CHECKLISTS_PATH}/${result.data.id}/editar`, {
        type: "success",
        title: T.duplicated,
      });
    if (result.status === 401) return failLoad(api, result, result.message);
    return data({ duplicateMessage: result.message }, { status: result.status });
  }
  const { nome, categoria, rows } = sentRows(form);
  const kept = rows.filter((row) => !row.remover).map(({ remover: _, ...row }) => row);
  if (intent === "linhas")
    return data<ChecklistFormActionData>({
      message: null,
      values: { nome, categoria, itens: [...kept, ...blank(MORE_ROWS)] },
    });
  const body = {
    categoriaId: Number(categoria) || 0,
    nome,
    itens: kept
      .filter((row) => row.texto.trim() !== "")
      .map((row) => ({
        chave: Number(row.chave) || null,
        texto: row.texto,
        peso: Number(row.peso) || 0,
        procedimentoId: Number(row.procedimento) || null,
      })),
  };
  const result = id ? await updateChecklist(api, id, body) : await createChecklist(api, body);
  if (result.ok)
    return redirectWithToast(args.context, CHECKLISTS_PATH, { type: "success", title: id ? T.saved : T.created });
  if (result.status === 401) return failLoad(api, result, result.message);
  return data<ChecklistFormActionData>(
    { message: result.message, values: { nome, categoria, itens: [...kept, ...blank(BLANK_ROWS)] } },
    { status: result.status },
  );
}
