import { isValidCnpj } from "@brazilian-utils/brazilian-utils/is-valid-cnpj";
import * as z from "zod/mini";

import { birthDateField, cpfField, emailField, nameField, passwordField, phoneField, preprocess } from "./fields.ts";
import { onlyDigits } from "./masks.ts";

/**
 * Branches (filiais) and main companies (empresas matriz), spec 000 §2 'Branches' and 'Main companies', §3, §5, §8:
 * the Portuguese texts, and the field rules shared by the web forms (conform, in the browser and in actions) and the
 * API's request bodies. Pure and browser-safe (zod/mini only, as api/domain/fields.ts). Texts the spec does not give
 * are marked 'ours' and listed in docs/organisation.md.
 */
export const BRANCH_TEXTS = {
  title: "Filiais",
  listTab: "Listar filiais",
  registerTab: "Cadastrar filial",
  formTitle: "Dados da filial",
  editTitle: "Editar filial",
  empty: "Não existem filiais cadastradas ainda.",
  // ours: the spec only says the help text differs when the user sees all companies
  helpEditor: "Nesta página você pode visualizar, cadastrar e editar as filiais da sua empresa matriz.",
  helpAllCompanies:
    "Nesta página você pode visualizar, cadastrar e editar as filiais da empresa em que você trabalha; as demais " +
    "empresas que você administra têm suas filiais cadastradas pelos seus próprios administradores.",
  searchLabel: "Buscar filial",
  // §5 'Branches'
  nameRequired: "Nome é obrigatório",
  cnpjRequired: "CNPJ é obrigatório",
  addressRequired: "Endereço é obrigatório",
  numberRequired: "Número é obrigatório",
  duplicateTitle: "Filial duplicada",
  duplicateDescription: "Já existe uma filial cadastrada com o mesmo nome",
  // §6 'Menu'
  deniedTitle: "Permissão negada!",
  deniedDescription: "Para cadastrar uma nova FILIAL entre em contato com o administrador do sistema",
  // §8 'Branches'
  failedTitle: "Erro",
  createFailed: "Erro ao cadastrar filial",
  editFailed: "Erro ao salvar filial",
  created: "Filial cadastrada com sucesso",
  edited: "Filial salva com sucesso",
  loadFailed: "Erro ao carregar dados, por favor atualize a página",
  // ours
  numberDigits: "Digite apenas números",
  notFound: "Filial não encontrada",
} as const;

export const COMPANY_TEXTS = {
  title: "Empresa matriz",
  listTab: "Listar empresas",
  registerTab: "Cadastrar empresa",
  editTitle: "Editar Empresa",
  boardsTitle: "Quadros de Auditoria",
  empty: "Não existem empresas matriz cadastradas.",
  // ours, from the tooltip's description in §2 'Main companies'
  helpEditor: "Nesta página você pode visualizar, cadastrar e editar as empresas matriz.",
  helpViewer: "Nesta página você pode visualizar as empresas matriz. Somente o Administrador (P) cadastra e edita.",
  searchLabel: "Buscar empresa",
  // §5 'Main companies'
  nameRequired: "Nome obrigatório",
  neighbourhoodRequired: "Bairro obrigatório",
  cityRequired: "Cidade obrigatório",
  addressRequired: "Endereço obrigatório",
  numberRequired: "Número obrigatório",
  cnpjRequired: "CNPJ obrigatório",
  maxUsersRequired: "Número de funcionários é obrigatório",
  boardsRequired: "É necessário pelo menos um quadro",
  userNameRequired: "Nome de usuário obrigatório",
  // §8 'Companies'
  editFailedTitle: "Erro na Edição",
  editInvalidTitle: "Erro ao Editar",
  editInvalidDescription: "Ocorreu um erro ao fazer a edição, por favor verifique os campos.",
  createFailedTitle: "Erro no Cadastro",
  createInvalidDescription: "Ocorreu um erro ao fazer o cadastro, Por favor verifique os campos.",
  successTitle: "Sucesso!",
  edited: "A empresa foi editada com sucesso.",
  created: "A empresa foi cadastrada com sucesso.",
  loadFailed: "Erro ao carregar dados, favor recarregue a página.",
  // ours
  notFound: "Empresa não encontrada",
  cnpjTaken: "CNPJ já cadastrado",
  emailTaken: "E-mail já cadastrado",
  cpfTaken: "CPF já cadastrado",
  boardInvalid: "Quadro de auditoria inválido",
  maxUsersInvalid: "Digite um número inteiro de 1 a 100000",
  maxUsersBelowCount: (count: number) =>
    `O número máximo de funcionários não pode ser menor que o de usuários ativos (${count})`,
} as const;

/** Spec 000 §9: 'A new main company is created with max_number_users 50.' */
export const NEW_COMPANY_MAX_USERS = 50;
export const MAX_USERS_LIMIT = 100_000;
export const CNPJ_INVALID = "Esse CNPJ não é válido!";
export const STATUS_LABELS = { true: "Ativo", false: "Inativo" } as const;
export const statusLabel = (ativo: boolean) => (ativo ? STATUS_LABELS.true : STATUS_LABELS.false);

const tooLong = (max: number) => `Grande demais: esperava que o texto tivesse <= ${max} caracteres`;

/** Trimmed text with inner runs of white space collapsed (what a name is compared and stored as). */
export function normaliseText(value: unknown) {
  return typeof value === "string" ? value.replace(/\s+/g, " ").trim() : "";
}

const text = (required: string, max: number) =>
  preprocess(normaliseText, z.string().check(z.minLength(1, required), z.maxLength(max, tooLong(max))));

/** Whether 14 digits (punctuation ignored) make a CNPJ with valid check digits. */
export function isCnpj(value: string) {
  const digits = onlyDigits(value);
  return digits.length === 14 && isValidCnpj(digits);
}

/**
 * The digits a list search matches against CNPJs: only when the term is written like (part of) a CNPJ, digits with
 * its punctuation. A name with a digit in it ('Filial 2') must not match every CNPJ holding a 2.
 */
export function cnpjSearchDigits(q: string | undefined) {
  const term = q?.trim() ?? "";
  return /^[\d./\s-]+$/.test(term) ? onlyDigits(term) : "";
}

/** 00.000.000/0000-00 with or without punctuation, valid check digits; answers the 14 digits. */
export const cnpjField = (required: string) =>
  z.pipe(
    text(required, 30),
    z.pipe(z.string(), z.transform(onlyDigits)).check(z.refine((digits: string) => isCnpj(digits), CNPJ_INVALID)),
  );

/** A form's tick box or radio ('on', 'true', '1') or JSON's boolean. */
export function toBoolean(value: unknown) {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value === 1;
  return typeof value === "string" && ["on", "true", "1", "ativo"].includes(value.trim().toLowerCase());
}
export const booleanField = preprocess(toBoolean, z.boolean());

/** The branch payload's fields (spec 000 §3 'Branch save payload'): NOME, CNPJ, ENDERECO, NUMERO. */
export const branchFields = {
  NOME: text(BRANCH_TEXTS.nameRequired, 120),
  CNPJ: cnpjField(BRANCH_TEXTS.cnpjRequired),
  ENDERECO: text(BRANCH_TEXTS.addressRequired, 200),
  // Número is numeric (spec 000 §2): digits only, stored as text like the original.
  NUMERO: z.pipe(text(BRANCH_TEXTS.numberRequired, 10), z.string().check(z.regex(/^\d+$/, BRANCH_TEXTS.numberDigits))),
};

/** The company fields create and edit share (spec 000 §3 'Create-company payload' / 'Edit-company payload'). */
export const companyFields = {
  nome: text(COMPANY_TEXTS.nameRequired, 120),
  cnpj: cnpjField(COMPANY_TEXTS.cnpjRequired),
  endereco: text(COMPANY_TEXTS.addressRequired, 200),
  numero: text(COMPANY_TEXTS.numberRequired, 20),
  bairro: text(COMPANY_TEXTS.neighbourhoodRequired, 120),
  cidade: text(COMPANY_TEXTS.cityRequired, 120),
};

/** Form values arrive as text, JSON as numbers. */
function toInteger(value: unknown) {
  if (typeof value === "number") return value;
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string" && value.trim() === "") return undefined;
  if (typeof value === "string" && /^\s*\d{1,9}\s*$/.test(value)) return Number(value);
  return Number.NaN;
}

export const maxUsersField = preprocess(
  toInteger,
  z
    .int({
      error: (issue) => (issue.input === undefined ? COMPANY_TEXTS.maxUsersRequired : COMPANY_TEXTS.maxUsersInvalid),
    })
    .check(z.minimum(1, COMPANY_TEXTS.maxUsersInvalid), z.maximum(MAX_USERS_LIMIT, COMPANY_TEXTS.maxUsersInvalid)),
);

/** The create payload's user limit: optional (50 when absent, spec 000 §9). */
export const optionalMaxUsersField = z.optional(maxUsersField);

/** The ticked boards: one value or several from a form, an array from JSON, each once; anything not a number is 0. */
export function toBoardIds(value: unknown): number[] {
  if (value === undefined || value === null || value === "") return [];
  const list = Array.isArray(value) ? value : [value];
  const ids = list.filter((entry) => entry !== "").map((entry) => toInteger(entry) ?? Number.NaN);
  return [...new Set(ids.map((id) => (Number.isInteger(id) ? id : 0)))];
}

/**
 * The audit boards' highest id: 1 to 8 the spec's (000 §3), 9 ours (the inspections' chart, api/domain/audit.ts
 * AUDIT_BOARDS). A literal, not AUDIT_BOARDS.length: the company forms' browser bundle stays clear of the audit module.
 */
const BOARD_ID_MAX = 9;

/** Ids 1 to 9, at least one; a message on the field itself, not on one entry (the API checks them against `boards`). */
export const boardIdsField = preprocess(
  toBoardIds,
  z.array(z.number()).check(
    z.minLength(1, COMPANY_TEXTS.boardsRequired),
    z.maxLength(BOARD_ID_MAX, COMPANY_TEXTS.boardInvalid),
    z.refine((ids: number[]) => ids.every((id) => id >= 1 && id <= BOARD_ID_MAX), COMPANY_TEXTS.boardInvalid),
  ),
);

/** The company's first administrator (the create payload's userAdmin), with the sign-up messages. */
export const companyAdminFields = {
  nome: nameField(COMPANY_TEXTS.userNameRequired),
  email: emailField,
  cpf: cpfField,
  dataNascimento: birthDateField,
  telefone: phoneField,
  password: passwordField,
};

/** The register form's admin fields (spec 000 §5 names them nomeuser, nascimento ...) -> the payload's userAdmin. */
export const ADMIN_FORM_FIELDS = {
  nomeuser: "nome",
  email: "email",
  cpf: "cpf",
  nascimento: "dataNascimento",
  telefone: "telefone",
  password: "password",
} as const satisfies Record<string, keyof typeof companyAdminFields>;

/**
 * The API's field errors ('userAdmin.email', 'quadroIds', 'cnpj') keyed by the register form's field names, so a
 * refusal (a CNPJ or e-mail already taken) marks the field the user typed into.
 */
export function companyFormErrors(fieldErrors: Record<string, string[]> | undefined) {
  const byPayload = Object.fromEntries(Object.entries(ADMIN_FORM_FIELDS).map(([form, payload]) => [payload, form]));
  const out: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(fieldErrors ?? {})) {
    const [head, tail] = key.split(".", 2);
    const name = head === "userAdmin" && tail ? (byPayload[tail] ?? tail) : key;
    (out[name] ??= []).push(...messages);
  }
  return out;
}
