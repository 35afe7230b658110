import { isValidCpf } from "@brazilian-utils/brazilian-utils";
import { isValid, parse } from "date-fns";
import { z } from "zod";
import { ptBR } from "zod/locales";

import { onlyDigits } from "./masks.ts";

/**
 * Reusable field rules with the spec's Portuguese messages (spec 000 §5), used by the web forms (conform, in the
 * browser and in actions) and by the API's request schemas. Fields arrive as text from forms and JSON alike.
 */
// Any message a rule below does not set itself (a missing or mistyped field) is Portuguese too, in the browser and
// on the server: every schema of the product imports this module.
z.config(ptBR());

export const MESSAGES = {
  emailRequired: "E-mail obrigatório",
  emailInvalid: "Digite um email válido",
  passwordRequired: "Senha obrigatória",
  passwordMin: "No mínimo 6 dígitos",
  passwordsDiffer: "Senhas precisam ser iguais",
  emailsDiffer: "E-mails precisam ser iguais",
  nameRequired: "Nome obrigatório",
  cpfRequired: "CPF obrigatório",
  cpfInvalid: "Esse CPF não é válido!",
  birthRequired: "Data de nascimento obrigatória",
  birthInvalid: "A Data de nascimento é inválida!",
  phoneRequired: "Telefone obrigatório",
} as const;

export const PASSWORD_MIN = 6;
/** Avatars: images of at most 2 MB (the API checks the type from the bytes, the form from the browser's type). */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const AVATAR_TOO_BIG = "Arquivo muito grande: o limite é de 2 MB";
export const BIRTH_YEAR_MIN = 1940;

const text = (required: string) =>
  z.preprocess((value) => (typeof value === "string" ? value.trim() : (value ?? "")), z.string().min(1, required));

export const emailField = text(MESSAGES.emailRequired).pipe(
  z.email({ error: MESSAGES.emailInvalid }).transform((value) => value.toLowerCase()),
);

export const nameField = (message: string = MESSAGES.nameRequired) => text(message).pipe(z.string().max(120));

export const passwordField = z.preprocess(
  (value) => value ?? "",
  z.string().min(PASSWORD_MIN, MESSAGES.passwordMin).max(200),
);

/** 11 digits with valid check digits; answers the digits only. */
export const cpfField = text(MESSAGES.cpfRequired).pipe(
  z
    .string()
    .transform(onlyDigits)
    .refine((digits) => digits.length === 11 && isValidCpf(digits), MESSAGES.cpfInvalid),
);

/** (00) 0 0000-0000 or a landline; answers the digits only. */
export const phoneField = text(MESSAGES.phoneRequired).pipe(
  z
    .string()
    .max(16, MESSAGES.phoneRequired)
    .transform(onlyDigits)
    .refine((digits) => digits.length === 10 || digits.length === 11, "Digite um telefone válido"),
);

/** DD/MM/YYYY (or YYYY-MM-DD from the API), a real day, year >= 1940, not in the future; answers YYYY-MM-DD. */
export function parseBirthDate(value: string): string | null {
  const trimmed = value.trim();
  const format = /^\d{4}-\d{2}-\d{2}$/.test(trimmed) ? "yyyy-MM-dd" : "dd/MM/yyyy";
  if (format === "dd/MM/yyyy" && !/^\d{2}\/\d{2}\/\d{4}$/.test(trimmed)) return null;
  const date = parse(trimmed, format, new Date(2000, 0, 1));
  if (!isValid(date) || date.getFullYear() < BIRTH_YEAR_MIN || date > new Date()) return null;
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export const birthDateField = text(MESSAGES.birthRequired).pipe(
  z.string().transform((value, context) => {
    const iso = parseBirthDate(value);
    if (!iso) {
      context.addIssue({ code: "custom", message: MESSAGES.birthInvalid });
      return z.NEVER;
    }
    return iso;
  }),
);

/** The orange notices of the sign-in page: what in a typed e-mail is likely a typo. */
export function emailWarnings(email: string): string[] {
  const warnings: string[] = [];
  if (/[A-ZÀ-Ý]/.test(email)) warnings.push("Seu e-mail possui letra maiúscula, por favor verifique se está correto");
  if (/[À-ÖØ-öø-ÿ]/.test(email.replace(/[çÇ]/g, "")))
    warnings.push("Seu e-mail possui acento, por favor verifique se está correto");
  if (/[çÇ]/.test(email)) warnings.push("Seu e-mail possui 'ç', por favor verifique se está correto");
  return warnings;
}

/** The fields of a sign-up (POST /users); the web form adds the password confirmation. */
export const signUpFields = {
  nome: nameField(),
  email: emailField,
  emailConfirmation: z.preprocess((v) => (typeof v === "string" ? v.trim().toLowerCase() : ""), z.string()),
  cpf: cpfField,
  dataNascimento: birthDateField,
  telefone: phoneField,
  password: passwordField,
};

/** A refinement that marks `field` when it differs from `other` (confirmations). */
export function matches<T extends Record<string, unknown>>(
  field: keyof T & string,
  other: keyof T & string,
  message: string,
) {
  return (value: T, context: z.RefinementCtx) => {
    if (value[field] !== value[other]) context.addIssue({ code: "custom", path: [field], message });
  };
}
