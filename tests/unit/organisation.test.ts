/**
 * The pure rules of branches and main companies (api/domain/organisation.ts) and the web forms built on them
 * (app/branches/form-schema.ts, app/companies/form-schema.ts): spec 000 §5 'Branches' and 'Main companies'.
 */
import { describe, expect, test } from "vitest";
import type * as z from "zod/mini";

import {
  boardIdsField,
  booleanField,
  BRANCH_TEXTS,
  cnpjField,
  cnpjSearchDigits,
  COMPANY_TEXTS,
  companyFormErrors,
  isCnpj,
  maxUsersField,
  normaliseText,
  statusLabel,
  toBoardIds,
} from "../../api/domain/organisation.ts";
import { BranchEditSchema, BranchFormSchema } from "../../app/branches/form-schema.ts";
import { CompanyEditSchema, CompanyRegisterSchema } from "../../app/companies/form-schema.ts";
import { cnpjWithCheckDigits, punctuatedCnpj, withWrongCnpjCheckDigit } from "../support/cnpj.ts";

function check(schema: z.ZodMiniType, value: unknown) {
  const result = schema.safeParse(value);
  return result.success ? { value: result.data } : { error: result.error.issues[0].message };
}

/** Every message of a failed parse, keyed by field (as conform shows them). */
function messages(schema: z.ZodMiniType, value: unknown) {
  const result = schema.safeParse(value);
  if (result.success) return {};
  const out: Record<string, string[]> = {};
  for (const issue of result.error.issues) (out[issue.path.join(".")] ??= []).push(issue.message);
  return out;
}

const CNPJ = cnpjWithCheckDigits("112223330001");

describe("CNPJ", () => {
  test.each([CNPJ, punctuatedCnpj(CNPJ), ` ${punctuatedCnpj(CNPJ)} `, "95961066080247"])("%s is valid", (value) => {
    expect(isCnpj(value)).toBe(true);
    expect(check(cnpjField("obrigatório"), value)).toEqual({ value: value.replace(/\D/g, "") });
  });

  test.each([
    ["a wrong check digit", withWrongCnpjCheckDigit(CNPJ)],
    ["13 digits", CNPJ.slice(0, 13)],
    ["15 digits", `${CNPJ}1`],
    ["all zeros", "00.000.000/0000-00"],
    ["all the same digit", "11111111111111"],
  ])("%s is refused with 'Esse CNPJ não é válido!'", (_label, value) => {
    expect(isCnpj(value)).toBe(false);
    expect(check(cnpjField("obrigatório"), value)).toEqual({ error: "Esse CNPJ não é válido!" });
  });

  test("empty is the field's own 'required' message", () => {
    expect(check(cnpjField(BRANCH_TEXTS.cnpjRequired), "  ")).toEqual({ error: "CNPJ é obrigatório" });
    expect(check(cnpjField(COMPANY_TEXTS.cnpjRequired), undefined)).toEqual({ error: "CNPJ obrigatório" });
  });
});

test.each([
  ["95.961.066/0802-47", "95961066080247"],
  [" 0802-47 ", "080247"],
  ["95961", "95961"],
  ["E2E no-js eced4d", ""],
  ["Filial 2", ""],
  ["", ""],
])("a list search for %j matches CNPJ digits %j", (q, digits) => {
  expect(cnpjSearchDigits(q)).toBe(digits);
});

describe("small rules", () => {
  test("text is trimmed and inner runs of spaces collapse", () => {
    expect(normaliseText("  Filial \t  Centro ")).toBe("Filial Centro");
    expect(normaliseText(undefined)).toBe("");
  });

  test("a tick box, a radio or JSON's boolean", () => {
    for (const yes of [true, "on", "true", "1", 1, " TRUE "]) expect(check(booleanField, yes)).toEqual({ value: true });
    for (const no of [false, "false", "0", "", undefined, null, 0])
      expect(check(booleanField, no)).toEqual({ value: false });
  });

  test("boards: one value or several, each once; ids 1 to 9, at least one", () => {
    expect(toBoardIds("3")).toEqual([3]);
    expect(toBoardIds(["1", "8", "1", ""])).toEqual([1, 8]);
    expect(toBoardIds([2, "x"])).toEqual([2, 0]);
    expect(toBoardIds(undefined)).toEqual([]);
    expect(check(boardIdsField, ["1", "8"])).toEqual({ value: [1, 8] });
    expect(check(boardIdsField, [])).toEqual({ error: "É necessário pelo menos um quadro" });
    expect(check(boardIdsField, undefined)).toEqual({ error: "É necessário pelo menos um quadro" });
    expect(check(boardIdsField, ["1", "9"])).toEqual({ value: [1, 9] });
    expect(check(boardIdsField, ["10"])).toEqual({ error: "Quadro de auditoria inválido" });
    expect(check(boardIdsField, ["0"])).toEqual({ error: "Quadro de auditoria inválido" });
    expect(check(boardIdsField, ["abc"])).toEqual({ error: "Quadro de auditoria inválido" });
  });

  test("the user limit: required, a whole number from 1 to 100,000", () => {
    expect(check(maxUsersField, "50")).toEqual({ value: 50 });
    expect(check(maxUsersField, 80)).toEqual({ value: 80 });
    expect(check(maxUsersField, "")).toEqual({ error: "Número de funcionários é obrigatório" });
    for (const bad of ["0", "-1", "2.5", "abc", "100001"])
      expect(check(maxUsersField, bad), bad).toEqual({ error: "Digite um número inteiro de 1 a 100000" });
  });

  test("status labels", () => {
    expect(statusLabel(true)).toBe("Ativo");
    expect(statusLabel(false)).toBe("Inativo");
  });

  test("the API's field errors land on the register form's fields", () => {
    expect(
      companyFormErrors({
        cnpj: ["CNPJ já cadastrado"],
        "userAdmin.email": ["E-mail já cadastrado"],
        "userAdmin.nome": ["Nome de usuário obrigatório"],
        "userAdmin.dataNascimento": ["A Data de nascimento é inválida!"],
        quadroIds: ["É necessário pelo menos um quadro"],
      }),
    ).toEqual({
      cnpj: ["CNPJ já cadastrado"],
      email: ["E-mail já cadastrado"],
      nomeuser: ["Nome de usuário obrigatório"],
      nascimento: ["A Data de nascimento é inválida!"],
      quadroIds: ["É necessário pelo menos um quadro"],
    });
    expect(companyFormErrors(undefined)).toEqual({});
  });
});

describe("the branch forms (spec 000 §5 'Branches')", () => {
  test("every message when empty", () => {
    expect(messages(BranchFormSchema, {})).toEqual({
      NOME: ["Nome é obrigatório"],
      CNPJ: ["CNPJ é obrigatório"],
      ENDERECO: ["Endereço é obrigatório"],
      NUMERO: ["Número é obrigatório"],
    });
  });

  test("a valid form gives the payload's values: CNPJ digits, Número digits only", () => {
    expect(
      check(BranchEditSchema, {
        NOME: " Filial  Benfica ",
        CNPJ: punctuatedCnpj(CNPJ),
        ENDERECO: "Rua A",
        NUMERO: "12",
        ATIVO: "false",
      }),
    ).toEqual({ value: { NOME: "Filial Benfica", CNPJ, ENDERECO: "Rua A", NUMERO: "12", ATIVO: false } });
    expect(messages(BranchFormSchema, { NOME: "x", CNPJ, ENDERECO: "y", NUMERO: "12A" })).toEqual({
      NUMERO: ["Digite apenas números"],
    });
  });
});

describe("the main-company forms (spec 000 §5 'Main companies')", () => {
  test("register: every message when empty", () => {
    expect(messages(CompanyRegisterSchema, {})).toEqual({
      nome: ["Nome obrigatório"],
      cnpj: ["CNPJ obrigatório"],
      endereco: ["Endereço obrigatório"],
      numero: ["Número obrigatório"],
      bairro: ["Bairro obrigatório"],
      cidade: ["Cidade obrigatório"],
      quadroIds: ["É necessário pelo menos um quadro"],
      nomeuser: ["Nome de usuário obrigatório"],
      email: ["E-mail obrigatório"],
      cpf: ["CPF obrigatório"],
      nascimento: ["Data de nascimento obrigatória"],
      telefone: ["Telefone obrigatório"],
      password: ["No mínimo 6 dígitos"],
    });
  });

  const valid = {
    nome: "Empresa",
    cnpj: punctuatedCnpj(CNPJ),
    endereco: "Rua",
    numero: "1",
    bairro: "Centro",
    cidade: "Sobral",
    quadroIds: ["1", "2"],
    nomeuser: "Ana",
    email: "Ana@Empresa.com.br",
    cpf: "529.982.247-25",
    nascimento: "12/04/1990",
    telefone: "(85) 9 8888-7777",
    password: "segredo1",
    confirmPassword: "segredo1",
  };

  test("register: a valid form, and the password confirmation", () => {
    expect(check(CompanyRegisterSchema, valid)).toEqual({
      value: {
        ...valid,
        cnpj: CNPJ,
        quadroIds: [1, 2],
        email: "ana@empresa.com.br",
        cpf: "52998224725",
        nascimento: "1990-04-12",
        telefone: "85988887777",
      },
    });
    expect(messages(CompanyRegisterSchema, { ...valid, confirmPassword: "outra" })).toEqual({
      confirmPassword: ["Senhas precisam ser iguais"],
    });
  });

  test("edit: every message when empty; the toggle unticked is inactive", () => {
    expect(messages(CompanyEditSchema, {})).toEqual({
      nome: ["Nome obrigatório"],
      cnpj: ["CNPJ obrigatório"],
      endereco: ["Endereço obrigatório"],
      numero: ["Número obrigatório"],
      bairro: ["Bairro obrigatório"],
      cidade: ["Cidade obrigatório"],
      max_number_users: ["Número de funcionários é obrigatório"],
      // The client report's late tolerance (issue 24 §3): the form shows the saved value; cleared, it is refused.
      late_tolerance_minutes: ["Digite um número inteiro de 0 a 240"],
      quadroIds: ["É necessário pelo menos um quadro"],
    });
    const { value } = check(CompanyEditSchema, { ...valid, max_number_users: "50", late_tolerance_minutes: "15" }) as {
      value: { ativo: boolean };
    };
    expect(value.ativo).toBe(false);
  });
});
