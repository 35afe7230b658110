import * as z from "zod/mini";

import {
  CATALOGUES,
  catalogueTexts,
  HEX_COLOR,
  normaliseCatalogueName,
  type CatalogueKind,
} from "../../api/domain/catalogues";
import {
  emailField,
  matches,
  MESSAGES,
  passwordField,
  phoneField,
  preprocess,
  signUpFields,
} from "../../api/domain/fields";

/**
 * One zod schema per form (STYLE 3), used by conform in the browser and by the action on the server.
 * Field rules and messages come from api/domain/fields.ts, the same rules the API applies. `zod/mini`, as there:
 * this module is in the browser bundle of every form page (docs/performance.md 'JS budget').
 */
const required = (message: string) => preprocess((value) => value ?? "", z.string().check(z.minLength(1, message)));

export const SignInSchema = z.object({
  email: emailField,
  password: required(MESSAGES.passwordRequired),
  redirectTo: z.optional(z.string()),
});

export const SignUpSchema = z
  .object({ ...signUpFields, confirmPassword: preprocess((v) => v ?? "", z.string()) })
  .check(
    z.superRefine(matches("emailConfirmation", "email", MESSAGES.emailsDiffer)),
    z.superRefine(matches("confirmPassword", "password", MESSAGES.passwordsDiffer)),
  );

export const ForgotPasswordSchema = z.object({
  email: preprocess(
    (v) => (typeof v === "string" ? v.trim() : ""),
    z.pipe(z.string().check(z.minLength(1, MESSAGES.emailRequired)), z.email({ error: "Digite um email válido!" })),
  ),
});

export const ResetPasswordSchema = z
  .object({
    token: required("O link de recuperação não tem o código (token). Peça um novo e-mail de recuperação."),
    password: passwordField,
    password_confirmation: preprocess((v) => v ?? "", z.string()),
  })
  .check(z.superRefine(matches("password_confirmation", "password", MESSAGES.passwordsDiffer)));

export const ProfileSchema = z.object({
  email: emailField,
  telefone: phoneField,
});

const PASSWORD_CHANGE_MIN = "São no mínimo 6 dígitos ou caracteres";
const optionalText = preprocess((v) => (typeof v === "string" ? v : ""), z.string());

/** Password change on the profile: all optional, but once anything is typed all three are checked. */
function passwordChangeRule(
  value: { senhaAtual: string; novaSenha: string; confirmarSenha: string },
  context: z.core.$RefinementCtx,
) {
  const issue = (path: string, message: string) =>
    context.addIssue({ code: "custom", path: [path], message, input: value });
  if (!value.novaSenha && !value.senhaAtual && !value.confirmarSenha) return;
  if (!value.senhaAtual) issue("senhaAtual", "Senha antiga é requirida");
  else if (value.senhaAtual.length < 6) issue("senhaAtual", PASSWORD_CHANGE_MIN);
  if (value.novaSenha.length < 6) issue("novaSenha", PASSWORD_CHANGE_MIN);
  if (!value.confirmarSenha) issue("confirmarSenha", "Confirmação da senha é requirida");
  else if (value.confirmarSenha.length < 6) issue("confirmarSenha", PASSWORD_CHANGE_MIN);
  else if (value.confirmarSenha !== value.novaSenha) issue("confirmarSenha", MESSAGES.passwordsDiffer);
}

export const ProfileFormSchema = z
  .object({
    ...ProfileSchema.shape,
    senhaAtual: optionalText,
    novaSenha: optionalText,
    confirmarSenha: optionalText,
  })
  .check(z.superRefine(passwordChangeRule));

/** Create and edit of a catalogue item (one schema per kind: the messages name the kind). */
export function catalogueItemSchema(kind: CatalogueKind, withBranch: boolean) {
  const texts = catalogueTexts(kind);
  return z.object({
    name: preprocess(
      normaliseCatalogueName,
      z.string().check(z.minLength(1, texts.nameRequired), z.maxLength(120, "No máximo 120 caracteres")),
    ),
    color: CATALOGUES[kind].hasColor
      ? preprocess((value) => value ?? "", z.string().check(z.regex(HEX_COLOR, texts.colorRequired)))
      : z.optional(z.string()),
    companyId: withBranch
      ? preprocess(
          (value) => (value === "" ? undefined : value),
          z.pipe(z.coerce.number({ error: "Escolha a filial" }), z.int({ error: "Escolha a filial" })),
        )
      : z.optional(z.string()),
  });
}
