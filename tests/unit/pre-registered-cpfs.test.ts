/** The pure rules of pre-registered CPFs (api/domain/pre-registered-cpfs.ts): spec 000 §3, §5, §6, §7. */
import { describe, expect, test } from "vitest";
import * as z from "zod/mini";

import {
  levelField,
  preRegisteredCpfField,
  preRegisterLevelsFor,
  STATUS_ACTION_LABELS,
  STATUS_ACTIONS,
} from "../../api/domain/pre-registered-cpfs.ts";
import { cpfWithCheckDigits, withWrongCheckDigit } from "../support/cpf.ts";

const messages = (schema: z.core.$ZodType, value: unknown) => {
  const result = z.safeParse(schema, value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe("preRegisteredCpfField (spec 000 §5 'Pre-registered CPFs')", () => {
  const cpf = cpfWithCheckDigits("123456789");

  test("answers the digits of a valid CPF, masked or not", () => {
    expect(
      z.parse(preRegisteredCpfField, `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`),
    ).toBe(cpf);
    expect(z.parse(preRegisteredCpfField, ` ${cpf} `)).toBe(cpf);
  });

  test("the spec's messages, one at a time", () => {
    expect(messages(preRegisteredCpfField, "")).toEqual(["CPF do usuário é obrigatório"]);
    expect(messages(preRegisteredCpfField, undefined)).toEqual(["CPF do usuário é obrigatório"]);
    expect(messages(preRegisteredCpfField, "123.456.789")).toEqual(["Favor inserir um CPF válido"]);
    expect(messages(preRegisteredCpfField, withWrongCheckDigit(cpf))).toEqual(["Esse CPF não é válido!"]);
    expect(messages(preRegisteredCpfField, "000.000.000-00")).toEqual(["Esse CPF não é válido!"]);
  });
});

describe("levels (spec 000 §3 role list, §6 'Creating users')", () => {
  test("roles 3 and none give Coordenador and ASG; the others the four levels", () => {
    expect(preRegisterLevelsFor({ roleId: 3, coordenador: 1 })).toEqual([3, 5]);
    expect(preRegisterLevelsFor({ roleId: null, coordenador: null })).toEqual([3, 5]);
    expect(preRegisterLevelsFor({ roleId: 1, coordenador: null })).toEqual([2, 3, 4, 5]);
    expect(preRegisterLevelsFor({ roleId: 2, coordenador: null })).toEqual([2, 3, 4, 5]);
  });

  test("levelField reads a form's text or a number; anything else is 'Nível de acesso é obrigatório'", () => {
    expect(z.parse(levelField, "5")).toBe(5);
    expect(z.parse(levelField, 2)).toBe(2);
    for (const value of ["", undefined, "1", 7, "abc"]) {
      expect(messages(levelField, value)).toEqual(["Nível de acesso é obrigatório"]);
    }
  });

  test("status codes: 1 inactivate, 2 remove, 3 activate, with the spec's menu labels", () => {
    expect(STATUS_ACTIONS).toEqual({ inactivate: "1", remove: "2", activate: "3" });
    expect(STATUS_ACTION_LABELS["3"].label).toBe("Ativar usuário(s)");
    expect(STATUS_ACTION_LABELS["1"].label).toBe("Inativar usuário(s)");
    expect(STATUS_ACTION_LABELS["2"].label).toBe("Remover usuário(s)");
  });
});
