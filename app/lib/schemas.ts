import { z } from "zod";

import {
  CATALOGUES,
  catalogueTexts,
  HEX_COLOR,
  normaliseCatalogueName,
  type CatalogueKind,
} from "../../api/domain/catalogues";
import { emailField, matches, MESSAGES, passwordField, phoneField, signUpFields } from "../../api/domain/fields";

/**
 * One zod schema per form (STYLE 3), used by conform in the browser and by the action on the server.
 * Field rules and messages come from api/domain/fields.ts, the same rules the API applies.
 */
const required = (message: string) => z.preprocess((value) => value ?? "", z.string().min(1, message));

export const SignInSchema = z.object({
  email: emailField,
  password: required(MESSAGES.passwordRequired),
  redirectTo: z.string().optional(),
});

export const SignUpSchema = z
  .object({ ...signUpFields, confirmPassword: z.preprocess((v) => v ?? "", z.string()) })
  .superRefine(matches("emailConfirmation", "email", MESSAGES.emailsDiffer))
  .superRefine(matches("confirmPassword", "password", MESSAGES.passwordsDiffer));

export const ForgotPasswordSchema = z.object({
  email: z.preprocess(
    (v) => (typeof v === "string" ? v.trim() : ""),
    z
      .string()
      .min(1, MESSAGES.emailRequired)
      .pipe(z.email({ error: "Digite um email válido!" })),
  ),
});

export const ResetPasswordSchema = z
  .object({
    token: required("O link de recuperação não tem o código (token). Peça um novo e-mail de recuperação."),
    password: passwordField,
    password_confirmation: z.preprocess((v) => v ?? "", z.string()),
  })
  .superRefine(matches("password_confirmation", "password", MESSAGES.passwordsDiffer));

export const ProfileSchema = z.object({
  email: emailField,
  telefone: phoneField,
});

const PASSWORD_CHANGE_MIN = "São no mínimo 6 dígitos ou caracteres";
const optionalText = z.preprocess((v) => (typeof v === "string" ? v : ""), z.string());

/** Password change on the profile: all optional, but once anything is typed all three are checked. */
function passwordChangeRule(
  value: { senhaAtual: string; novaSenha: string; confirmarSenha: string },
  context: z.RefinementCtx,
) {
  const issue = (path: string, message: string) => context.addIssue({ code: "custom", path: [path], message });
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
  .superRefine(passwordChangeRule);

/** Create and edit of a catalogue item (one schema per kind: the messages name the kind). */
export function catalogueItemSchema(kind: CatalogueKind, withBranch: boolean) {
  const texts = catalogueTexts(kind);
  return z.object({
    name: z.preprocess(
      normaliseCatalogueName,
      z.string().min(1, texts.nameRequired).max(120, "No máximo 120 caracteres"),
    ),
    color: CATALOGUES[kind].hasColor
      ? z.preprocess((value) => value ?? "", z.string().regex(HEX_COLOR, texts.colorRequired))
      : z.string().optional(),
    companyId: withBranch
      ? z.preprocess(
          (value) => (value === "" ? undefined : value),
          z.coerce.number({ error: "Escolha a filial" }).int(),
        )
      : z.string().optional(),
  });
}
