import { isValidCpf } from "@brazilian-utils/brazilian-utils/is-valid-cpf";
import * as z from "zod/mini";

import { onlyDigits } from "./masks.ts";

/**
 * Reusable field rules with the spec's Portuguese messages (spec 000 §5), used by the web forms (conform, in the
 * browser and in actions) and by the API's request schemas. Fields arrive as text from forms and JSON alike.
 *
 * Written with `zod/mini` (functions instead of methods, imported as a namespace so the bundler keeps only what is
 * used): this module and app/lib/schemas.ts run in the browser, where full zod and its locales cost 91 KB gzip
 * (docs/performance.md 'JS budget'). The API embeds these schemas in its own (full) zod objects: both share
 * zod's core, so they parse and report alike (api/lib/zod-setup.ts sets zod's Portuguese locale for the server and
 * lets the OpenAPI generator read these schemas). Every check a form can fail carries its own message here, so the
 * browser shows the same Portuguese text without the locale.
 */

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

/** zod's `preprocess` (mini has none): the same pipe full zod builds. */
export function preprocess<T extends z.core.$ZodType>(fn: (value: unknown) => unknown, schema: T) {
  return z.pipe(
    z.transform((value: unknown) => fn(value)),
    schema,
  );
}

const text = (required: string) =>
  preprocess(
    (value) => (typeof value === "string" ? value.trim() : (value ?? "")),
    z.string().check(z.minLength(1, required)),
  );

export const emailField = z.pipe(
  text(MESSAGES.emailRequired),
  z.pipe(
    z.email({ error: MESSAGES.emailInvalid }),
    z.transform((value: string) => value.toLowerCase()),
  ),
);

/** The locale's own text for a too long field, set explicitly so the browser shows it too. */
const tooLong = (max: number) => `Grande demais: esperava que o texto tivesse <= ${max} caracteres`;

export const nameField = (message: string = MESSAGES.nameRequired) =>
  z.pipe(text(message), z.string().check(z.maxLength(120, tooLong(120))));

/**
 * The password rule. `optional()` is kept as a method for api/routes/users.ts, written for full zod's schemas
 * (`passwordField.optional()`); it is `z.optional(passwordField)`.
 */
const passwordRule = preprocess(
  (value) => value ?? "",
  z.string().check(z.minLength(PASSWORD_MIN, MESSAGES.passwordMin), z.maxLength(200, tooLong(200))),
);
export const passwordField = Object.assign(passwordRule, { optional: () => z.optional(passwordRule) });

/** 11 digits with valid check digits; answers the digits only. */
export const cpfField = z.pipe(
  text(MESSAGES.cpfRequired),
  z
    .pipe(z.string(), z.transform(onlyDigits))
    .check(z.refine((digits: string) => digits.length === 11 && isValidCpf(digits), MESSAGES.cpfInvalid)),
);

/** (00) 0 0000-0000 or a landline; answers the digits only. */
export const phoneField = z.pipe(
  text(MESSAGES.phoneRequired),
  z
    .pipe(z.string().check(z.maxLength(16, MESSAGES.phoneRequired)), z.transform(onlyDigits))
    .check(z.refine((digits: string) => digits.length === 10 || digits.length === 11, "Digite um telefone válido")),
);

/** DD/MM/YYYY (or YYYY-MM-DD from the API), a real day, year >= 1940, not in the future; answers YYYY-MM-DD. */
export function parseBirthDate(value: string): string | null {
  const trimmed = value.trim();
  // Plain arithmetic rather than date-fns' parse: this runs in the browser, where that parser costs 9 KB gzip.
  const parts =
    /^(\d{4})-(\d{2})-(\d{2})$/.exec(trimmed)?.slice(1) ??
    /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(trimmed)?.slice(1).reverse();
  if (!parts) return null;
  const [year, month, day] = parts.map(Number);
  const date = new Date(year, month - 1, day);
  // A real day: 31/02 rolls over into March and is refused.
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return null;
  if (year < BIRTH_YEAR_MIN || date > new Date()) return null;
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${year}-${pad(month)}-${pad(day)}`;
}

export const birthDateField = z.pipe(
  text(MESSAGES.birthRequired),
  z.pipe(
    z.string(),
    z.transform((value: string, context) => {
      const iso = parseBirthDate(value);
      if (!iso) {
        context.issues.push({ code: "custom", message: MESSAGES.birthInvalid, input: value });
        return z.NEVER;
      }
      return iso;
    }),
  ),
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
  emailConfirmation: preprocess((v) => (typeof v === "string" ? v.trim().toLowerCase() : ""), z.string()),
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
  return (value: T, context: z.core.$RefinementCtx<T>) => {
    if (value[field] !== value[other]) context.addIssue({ code: "custom", path: [field], message, input: value });
  };
}

export const INT32_MAX = 2_147_483_647;
const INVALID_ID = "Identificador inválido";

/** Form values arrive as text (one value, or several for a multi-select), JSON as numbers: read both. */
export function toNumber(value: unknown) {
  if (typeof value === "number") return value;
  if (typeof value === "string" && /^\s*\d+\s*$/.test(value)) return Number(value);
  return Number.NaN;
}

/** A database id: a positive 32-bit integer. */
export const id = (message: string = INVALID_ID) =>
  z.int({ error: message }).check(z.minimum(1, INVALID_ID), z.maximum(INT32_MAX, INVALID_ID));

/** One id chosen in a select (category, sector, company, branch, collaborator). */
export const idField = (required: string) =>
  preprocess(
    (value) => (value === undefined || value === null || value === "" ? undefined : toNumber(value)),
    id(required),
  );
