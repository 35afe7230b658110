import { isValidCpf } from "@brazilian-utils/brazilian-utils/is-valid-cpf";
import * as z from "zod/mini";

import { MESSAGES, preprocess } from "./fields.ts";
import { onlyDigits } from "./masks.ts";
import { isBranchLevel, type UserForRole } from "./roles.ts";
import { USER_TEXTS } from "./users.ts";

/**
 * Pre-registered CPFs (pré-cadastro de usuários), spec 000 §2 'Pre-registered CPFs', §3, §4, §5, §8: the Portuguese
 * texts, the CPF rule, the access levels and the bulk status codes, shared by the web forms and the API. Pure and
 * browser-safe (zod/mini only, as api/domain/fields.ts). Texts the spec does not give are marked 'ours' and listed in
 * docs/organisation.md.
 */
export const CPF_TEXTS = {
  title: "Pré-cadastro de usuários",
  listTab: "Listar CPF's",
  registerTab: "Cadastrar CPF's",
  single: "Cadastro individual",
  batch: "Cadastro em lote",
  empty: "Não existem CPF's pré-cadastrados ainda.",
  help:
    "Nesta página você pode visualizar, cadastrar e editar (ativar, inativar e remover) os CPF's autorizados a se " +
    "cadastrar e acessar o sistema web e/ou mobile.",
  // ours: the view-only variant of the help text
  helpViewer:
    "Nesta página você pode visualizar os CPF's autorizados a se cadastrar e acessar o sistema web e/ou mobile.",
  searchLabel: "Buscar CPF",
  statusMenu: "Status do(s) Usuário(s)",
  // §5 'Pre-registered CPFs'
  cpfRequired: "CPF do usuário é obrigatório",
  cpfLength: "Favor inserir um CPF válido",
  cpfInvalid: MESSAGES.cpfInvalid,
  noneSelectedTitle: "Nenhum registro selecionado",
  noneSelectedDescription: "Favor selecionar pelo menos um registro",
  batchFailed: "Erro ao pré-cadastrar lista de CPF's",
  // ours: the batch's success title and the hint under its file field
  batchCreated: "CPF's pré-cadastrados com sucesso",
  batchHint:
    "Um CPF por linha, com as colunas CPF e Nível (Administrador, Coordenador, Auditor ou ASG), como no arquivo " +
    "modelo. Escreva o CPF com pontos e traço para o Excel manter os zeros à esquerda.",
  // §8 'CPFs, users, branches, companies'
  created: "CPF pré-cadastrado com sucesso",
  createFailed: "Erro ao pré-cadastrar CPF",
  statusChanged: "Usuário(s) atualizado(s) com sucesso",
  statusFailed: "Erro ao atualizar status do(s) usuário(s)",
  blockedTitle: "Função bloqueada",
  blockedDescription: "O usuário ADMINISTRADOR não pode alterar o PRÓPRIO status",
  unexpectedTitle: "Houve um erro",
  unexpectedDescription: "Ocorreu um erro inexperado, tente novamente mais tarde.",
  // ours
  duplicate: "CPF já pré-cadastrado",
  userExists: "Já existe um usuário cadastrado com este CPF",
  // ours (issue 22): a CPF pre-registered or a user's in another main company, told apart from neither
  unavailable: USER_TEXTS.cpfUnavailable,
  levelRequired: "Nível de acesso é obrigatório",
  levelInvalid: "Nível de acesso não permitido",
  branchRequired: "Filial é obrigatória",
  companyRequired: "Empresa é obrigatória",
  notFound: "CPF não encontrado",
  actionInvalid: "Ação inválida",
} as const;

/** Spec 000 §3 'Role list on the pre-registration screen: Admin=2, Coordenador=3, Auditor=4, ASG=5'. */
export const PRE_REGISTER_LEVELS = [
  { id: 2, label: "Administrador" },
  { id: 3, label: "Coordenador" },
  { id: 4, label: "Auditor" },
  { id: 5, label: "ASG" },
] as const;
export type PreRegisterLevel = (typeof PRE_REGISTER_LEVELS)[number]["id"];

/**
 * The level of a pre-registration saved without one (issue 22, item 13): spec 000 §7's payload {cpf, idEmpresa,
 * idEmpresaFilial} carries none. ASG, the least of the four (the phone app only, no web sign-in, nobody to manage)
 * and one that every caller who may pre-register may give; a higher level is one transformTo* call away, while a
 * default that granted too much could not be taken back before the person signed in. The web form always sends one.
 */
export const DEFAULT_PRE_REGISTER_LEVEL: PreRegisterLevel = 5;

/**
 * The levels a caller may give (spec 000 §6 'Creating users'): roleId 3 or no role only Coordenador and ASG, others
 * all four. Writes are editors' (roles 1 and 2) anyway; the branch-level line keeps the rule in one place.
 */
export function preRegisterLevelsFor(user: UserForRole): readonly PreRegisterLevel[] {
  return isBranchLevel(user) ? [3, 5] : [2, 3, 4, 5];
}

export const levelLabel = (roleId: number | null) =>
  PRE_REGISTER_LEVELS.find((level) => level.id === roleId)?.label ?? "Sem nível de acesso";

/** Spec 000 §7 PUT empresas/ativaInativaDeleteFuncionarios: '1' inactivate, '2' remove, '3' activate. */
export const STATUS_ACTIONS = {
  inactivate: "1",
  remove: "2",
  activate: "3",
} as const;
export type StatusAction = (typeof STATUS_ACTIONS)[keyof typeof STATUS_ACTIONS];
export const STATUS_ACTION_CODES = ["1", "2", "3"] as const;

/** The menu entries, in the spec's order, with the question the confirmation asks (ours). */
export const STATUS_ACTION_LABELS: Record<StatusAction, { label: string; confirm: string }> = {
  "3": { label: "Ativar usuário(s)", confirm: "Tem certeza que deseja ativar os CPF's selecionados?" },
  "1": { label: "Inativar usuário(s)", confirm: "Tem certeza que deseja inativar os CPF's selecionados?" },
  "2": { label: "Remover usuário(s)", confirm: "Tem certeza que deseja remover os CPF's selecionados?" },
};

/**
 * Spec 000 §5: required ('CPF do usuário é obrigatório'), dots and dashes stripped, exactly 11 digits ('Favor
 * inserir um CPF válido'), and — the mask's rule — valid check digits ('Esse CPF não é válido!'). Answers the digits.
 */
export const preRegisteredCpfField = z.pipe(
  preprocess(
    (value) => (typeof value === "string" ? value.trim() : (value ?? "")),
    z.string().check(z.minLength(1, CPF_TEXTS.cpfRequired)),
  ),
  z.pipe(z.string(), z.transform(onlyDigits)).check(
    z.refine((digits: string) => digits.length === 11, { message: CPF_TEXTS.cpfLength, abort: true }),
    z.refine((digits: string) => isValidCpf(digits), CPF_TEXTS.cpfInvalid),
  ),
);

/** A level id from a form's text or the JSON's number. */
export const levelField = preprocess(
  (value) => (value === "" || value === null || value === undefined ? undefined : Number(value)),
  z.union([z.literal(2), z.literal(3), z.literal(4), z.literal(5)], { error: CPF_TEXTS.levelRequired }),
);
