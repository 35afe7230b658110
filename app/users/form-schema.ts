import * as z from "zod/mini";

import { matches, MESSAGES, nameField, PASSWORD_MIN, phoneField, preprocess } from "../../api/domain/fields";
import { levelById, USER_LEVELS, USER_TEXTS as T, userCreateFields, userNameField } from "../../api/domain/users";

/**
 * The forms of /listagem-usuarios (STYLE 3: one schema per form, conform in the browser, parseWithZod in the
 * action), built from the API's own rules and messages (api/domain/fields.ts, api/domain/users.ts). zod/mini: this
 * module is in the pages' browser bundle (docs/performance.md 'JS budget').
 */

/** 'Sem nível' in the level choice: it changes nothing (spec 000 §4). */
export const NO_LEVEL = 0;

const levelIds = USER_LEVELS.map((level) => level.id);
const numberOrUndefined = (value: unknown) =>
  value === "" || value === null || value === undefined ? undefined : Number(value);

/** A level of USER_LEVELS (which of them this user may give, the API decides: 403 otherwise). */
const levelField = preprocess(
  numberOrUndefined,
  z
    .number({ error: T.levelRequired })
    .check(z.refine((id: number) => (levelIds as readonly number[]).includes(id), T.levelInvalid)),
);

/** The branch select: a number, or nothing (company-wide levels ignore it). */
const branchField = preprocess(
  numberOrUndefined,
  z.optional(z.number({ error: T.branchRequired }).check(z.int({ error: T.branchRequired }))),
);

/** Coordenador, ASG and Cliente need a branch ('Filial é obrigatória'); the others ignore one sent without JS. */
function branchWhenNeeded(value: { roleId: number; filialId?: number }, context: z.core.$RefinementCtx) {
  if (levelById(value.roleId)?.branch && value.filialId === undefined)
    context.addIssue({ code: "custom", path: ["filialId"], message: T.branchRequired, input: value });
}

const text = preprocess((value) => (typeof value === "string" ? value : ""), z.string());

/**
 * 'Cadastrar usuário' (spec 000 §2 'Users', §5 'Create'): level, branch, nome, email, CPF, Data de Nascimento,
 * telefone, senha and its confirmation ('Senhas precisam ser iguais').
 */
export const UserCreateSchema = z
  .object({ roleId: levelField, filialId: branchField, ...userCreateFields, confirmPassword: text })
  .check(
    z.superRefine(branchWhenNeeded),
    z.superRefine(matches("confirmPassword", "password", MESSAGES.passwordsDiffer)),
  );

/** Spec 000 §5 'Users', edit: once a password or its confirmation is typed, at least 6 and both equal. */
function optionalPassword(value: { password: string; confirmPassword: string }, context: z.core.$RefinementCtx) {
  if (!value.password && !value.confirmPassword) return;
  const issue = (path: string, message: string) =>
    context.addIssue({ code: "custom", path: [path], message, input: value });
  if (value.password.length < PASSWORD_MIN) issue("password", MESSAGES.passwordMin);
  if (value.confirmPassword !== value.password) issue("confirmPassword", MESSAGES.passwordsDiffer);
}

/** The 'Ativo' switch: a tick box posts 'on' when ticked and nothing when not. */
const activeField = preprocess((value) => value === "on" || value === "true", z.boolean());

/** 'Alterar informações': nome, telefone, the active switch, and an optional new password. */
export const UserEditSchema = z
  .object({ nome: nameField(), telefone: phoneField, ativo: activeField, password: text, confirmPassword: text })
  .check(z.superRefine(optionalPassword));

/** 'Alterar nível de acesso': a level or 'Sem nível' (0), and the branch for Coordenador and ASG. */
export const UserLevelSchema = z
  .object({
    roleId: preprocess(
      numberOrUndefined,
      z
        .number({ error: T.levelRequired })
        .check(
          z.refine((id: number) => id === NO_LEVEL || (levelIds as readonly number[]).includes(id), T.levelInvalid),
        ),
    ),
    filialId: branchField,
  })
  .check(z.superRefine(branchWhenNeeded));

/** 'Nome do Usuário' ('Nome obrigatório'). */
export const UserNameSchema = z.object({ name: userNameField });

/** The hidden `intent` of the edit page's two forms (STYLE 4). */
export const EDIT_INTENT = { info: "informacoes", level: "nivel" } as const;

/** The hidden `intent` of the name form: a new name or a renamed one. */
export const NAME_INTENT = { create: "cadastrar", update: "editar" } as const;
