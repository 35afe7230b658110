import { describe, expect, test } from "vitest";
import type * as z from "zod/mini";

import {
  BIRTH_YEAR_MIN,
  birthDateField,
  cpfField,
  emailField,
  emailWarnings,
  MESSAGES,
  parseBirthDate,
  passwordField,
  phoneField,
} from "../../api/domain/fields.ts";

/** The first message of a failed parse, or the parsed value. */
function check(schema: z.ZodMiniType, value: unknown) {
  const result = schema.safeParse(value);
  return result.success ? { value: result.data } : { error: result.error.issues[0].message };
}

describe("cpfField", () => {
  test.each([
    ["529.982.247-25", "52998224725"],
    ["52998224725", "52998224725"],
    [" 111.444.777-35 ", "11144477735"],
    ["194.747.414-68", "19474741468"],
  ])("%s is valid: %s", (input, digits) => {
    expect(check(cpfField, input)).toEqual({ value: digits });
  });

  test("wrong check digits are 'Esse CPF não é válido!'", () => {
    expect(MESSAGES.cpfInvalid).toBe("Esse CPF não é válido!");
    expect(check(cpfField, "529.982.247-24")).toEqual({ error: "Esse CPF não é válido!" });
    expect(check(cpfField, "529.982.247-15")).toEqual({ error: "Esse CPF não é válido!" });
  });

  test("all zeros, repeated digits and wrong lengths are invalid", () => {
    for (const value of ["000.000.000-00", "111.111.111-11", "99999999999", "5299822472", "529982247250"]) {
      expect(check(cpfField, value), value).toEqual({ error: "Esse CPF não é válido!" });
    }
  });

  test("empty is 'CPF obrigatório'", () => {
    expect(check(cpfField, "")).toEqual({ error: "CPF obrigatório" });
    expect(check(cpfField, "   ")).toEqual({ error: "CPF obrigatório" });
    expect(check(cpfField, undefined)).toEqual({ error: "CPF obrigatório" });
  });
});

describe("birth date (DD/MM/YYYY, year >= 1940)", () => {
  test("valid dates answer ISO", () => {
    expect(parseBirthDate("12/04/1990")).toBe("1990-04-12");
    expect(parseBirthDate("01/01/1940")).toBe("1940-01-01");
    expect(parseBirthDate("29/02/2000")).toBe("2000-02-29");
    expect(parseBirthDate("1985-04-12")).toBe("1985-04-12");
    expect(check(birthDateField, " 31/12/1999 ")).toEqual({ value: "1999-12-31" });
  });

  test("the year minimum is 1940", () => {
    expect(BIRTH_YEAR_MIN).toBe(1940);
    expect(parseBirthDate("31/12/1939")).toBeNull();
    expect(parseBirthDate("01/01/1900")).toBeNull();
  });

  test.each([
    "32/01/1990",
    "00/01/1990",
    "15/13/1990",
    "15/00/1990",
    "29/02/2001",
    "31/04/1990",
    "1/1/1990",
    "12-04-1990",
    "12/04/90",
    "abc",
  ])("%s is invalid", (value) => {
    expect(parseBirthDate(value)).toBeNull();
    expect(check(birthDateField, value)).toEqual({ error: "A Data de nascimento é inválida!" });
  });

  test("a date in the future is invalid", () => {
    const nextYear = new Date().getFullYear() + 1;
    expect(parseBirthDate(`01/01/${nextYear}`)).toBeNull();
  });

  test("empty is 'Data de nascimento obrigatória'", () => {
    expect(check(birthDateField, "")).toEqual({ error: "Data de nascimento obrigatória" });
  });
});

describe("phoneField", () => {
  test("answers the digits of a mobile or a landline", () => {
    expect(check(phoneField, "(85) 9 8888-7777")).toEqual({ value: "85988887777" });
    expect(check(phoneField, "85988887777")).toEqual({ value: "85988887777" });
    expect(check(phoneField, "(85) 3333-4444")).toEqual({ value: "8533334444" });
  });

  test("too few or too many digits are refused", () => {
    expect(check(phoneField, "(85) 9 8888")).toEqual({ error: "Digite um telefone válido" });
    expect(check(phoneField, "859888877771")).toEqual({ error: "Digite um telefone válido" });
    // More than the mask's 16 characters.
    expect(check(phoneField, "(85) 9 8888-77770").error).toBeDefined();
  });

  test("empty is 'Telefone obrigatório'", () => {
    expect(check(phoneField, "")).toEqual({ error: "Telefone obrigatório" });
  });
});

describe("emailField and passwordField", () => {
  test("e-mails are trimmed and lower-cased", () => {
    expect(check(emailField, "  Maria@Exemplo.COM ")).toEqual({ value: "maria@exemplo.com" });
  });

  test("messages", () => {
    expect(check(emailField, "")).toEqual({ error: "E-mail obrigatório" });
    expect(check(emailField, "maria@")).toEqual({ error: "Digite um email válido" });
    expect(check(passwordField, "12345")).toEqual({ error: "No mínimo 6 dígitos" });
    expect(check(passwordField, undefined)).toEqual({ error: "No mínimo 6 dígitos" });
    expect(check(passwordField, "123456")).toEqual({ value: "123456" });
  });
});

describe("emailWarnings", () => {
  const UPPER = "Seu e-mail possui letra maiúscula, por favor verifique se está correto";
  const ACCENT = "Seu e-mail possui acento, por favor verifique se está correto";
  const CEDILLA = "Seu e-mail possui 'ç', por favor verifique se está correto";

  test("a plain e-mail has none", () => {
    expect(emailWarnings("maria@exemplo.com")).toEqual([]);
    expect(emailWarnings("")).toEqual([]);
  });

  test("upper case, accents and ç each warn once", () => {
    expect(emailWarnings("Maria@exemplo.com")).toEqual([UPPER]);
    expect(emailWarnings("joão@exemplo.com")).toEqual([ACCENT]);
    expect(emailWarnings("conceição@exemplo.com")).toEqual([ACCENT, CEDILLA]);
    expect(emailWarnings("françoise@exemplo.com")).toEqual([CEDILLA]);
    expect(emailWarnings("JOSÉ@exemplo.com")).toEqual([UPPER, ACCENT]);
    expect(emailWarnings("Ç@x.com")).toEqual([UPPER, CEDILLA]);
  });
});
