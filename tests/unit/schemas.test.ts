import { describe, expect, test } from "vitest";
import type * as z from "zod/mini";

import {
  ForgotPasswordSchema,
  ProfileFormSchema,
  ResetPasswordSchema,
  SignInSchema,
  SignUpSchema,
} from "../../app/lib/schemas.ts";

/** Field -> first message, as the form marks the fields. */
function errorsOf(schema: z.ZodMiniType, value: unknown) {
  const result = schema.safeParse(value);
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[issue.path.join(".")] ??= issue.message;
  return errors;
}

const signUp = {
  nome: "Maria das Dores",
  email: "maria@exemplo.com",
  emailConfirmation: "maria@exemplo.com",
  cpf: "529.982.247-25",
  dataNascimento: "12/04/1990",
  telefone: "(85) 9 8888-7777",
  password: "segredo1",
  confirmPassword: "segredo1",
};

describe("SignInSchema", () => {
  test("messages of spec 000 §5", () => {
    expect(errorsOf(SignInSchema, {})).toEqual({ email: "E-mail obrigatório", password: "Senha obrigatória" });
    expect(errorsOf(SignInSchema, { email: "maria", password: "x" })).toEqual({ email: "Digite um email válido" });
  });
});

describe("SignUpSchema", () => {
  test("a complete form passes and answers what the API expects", () => {
    const result = SignUpSchema.safeParse(signUp);
    expect(result.success).toBe(true);
    expect(result.data).toMatchObject({ cpf: "52998224725", telefone: "85988887777", dataNascimento: "1990-04-12" });
  });

  test("an empty form marks every field with its message", () => {
    expect(errorsOf(SignUpSchema, {})).toMatchObject({
      nome: "Nome obrigatório",
      email: "E-mail obrigatório",
      cpf: "CPF obrigatório",
      dataNascimento: "Data de nascimento obrigatória",
      telefone: "Telefone obrigatório",
      password: "No mínimo 6 dígitos",
    });
  });

  test("confirmations must match", () => {
    expect(errorsOf(SignUpSchema, { ...signUp, emailConfirmation: "outra@exemplo.com" })).toEqual({
      emailConfirmation: "E-mails precisam ser iguais",
    });
    expect(errorsOf(SignUpSchema, { ...signUp, confirmPassword: "segredo2" })).toEqual({
      confirmPassword: "Senhas precisam ser iguais",
    });
    // The e-mail confirmation is compared as the e-mail is stored (trimmed, lower case).
    expect(errorsOf(SignUpSchema, { ...signUp, emailConfirmation: " MARIA@exemplo.com " })).toEqual({});
  });

  test("field rules", () => {
    expect(errorsOf(SignUpSchema, { ...signUp, cpf: "529.982.247-24" })).toEqual({ cpf: "Esse CPF não é válido!" });
    expect(errorsOf(SignUpSchema, { ...signUp, dataNascimento: "31/12/1939" })).toEqual({
      dataNascimento: "A Data de nascimento é inválida!",
    });
    expect(errorsOf(SignUpSchema, { ...signUp, password: "12345", confirmPassword: "12345" })).toEqual({
      password: "No mínimo 6 dígitos",
    });
  });
});

describe("ForgotPasswordSchema and ResetPasswordSchema", () => {
  test("forgot: 'Digite um email válido!'", () => {
    expect(errorsOf(ForgotPasswordSchema, { email: "" })).toEqual({ email: "E-mail obrigatório" });
    expect(errorsOf(ForgotPasswordSchema, { email: "maria" })).toEqual({ email: "Digite um email válido!" });
    expect(errorsOf(ForgotPasswordSchema, { email: " maria@exemplo.com " })).toEqual({});
  });

  test("reset: a token, 6 characters and an equal confirmation", () => {
    expect(
      errorsOf(ResetPasswordSchema, { token: "abc", password: "segredo1", password_confirmation: "segredo1" }),
    ).toEqual({});
    expect(
      errorsOf(ResetPasswordSchema, { token: "", password: "segredo1", password_confirmation: "segredo1" }),
    ).toHaveProperty("token");
    expect(errorsOf(ResetPasswordSchema, { token: "abc", password: "12345", password_confirmation: "12345" })).toEqual({
      password: "No mínimo 6 dígitos",
    });
    expect(
      errorsOf(ResetPasswordSchema, { token: "abc", password: "segredo1", password_confirmation: "segredo2" }),
    ).toEqual({
      password_confirmation: "Senhas precisam ser iguais",
    });
  });
});

describe("ProfileFormSchema (password change on the profile)", () => {
  const profile = { email: "maria@exemplo.com", telefone: "85988887777" };

  test("without any password field it only checks e-mail and phone", () => {
    expect(errorsOf(ProfileFormSchema, profile)).toEqual({});
    expect(errorsOf(ProfileFormSchema, { ...profile, senhaAtual: "", novaSenha: "", confirmarSenha: "" })).toEqual({});
    expect(errorsOf(ProfileFormSchema, { email: "", telefone: "" })).toEqual({
      email: "E-mail obrigatório",
      telefone: "Telefone obrigatório",
    });
  });

  test("a new password needs the old one and the confirmation", () => {
    expect(errorsOf(ProfileFormSchema, { ...profile, novaSenha: "segredo1" })).toEqual({
      senhaAtual: "Senha antiga é requirida",
      confirmarSenha: "Confirmação da senha é requirida",
    });
  });

  test("each is at least 6 characters", () => {
    expect(
      errorsOf(ProfileFormSchema, { ...profile, senhaAtual: "12345", novaSenha: "12345", confirmarSenha: "12345" }),
    ).toEqual({
      senhaAtual: "São no mínimo 6 dígitos ou caracteres",
      novaSenha: "São no mínimo 6 dígitos ou caracteres",
      confirmarSenha: "São no mínimo 6 dígitos ou caracteres",
    });
  });

  test("the confirmation must equal the new password", () => {
    expect(
      errorsOf(ProfileFormSchema, {
        ...profile,
        senhaAtual: "antiga1",
        novaSenha: "segredo1",
        confirmarSenha: "segredo2",
      }),
    ).toEqual({
      confirmarSenha: "Senhas precisam ser iguais",
    });
    expect(
      errorsOf(ProfileFormSchema, {
        ...profile,
        senhaAtual: "antiga1",
        novaSenha: "segredo1",
        confirmarSenha: "segredo1",
      }),
    ).toEqual({});
  });

  test("typing only the old password still asks for the new one", () => {
    expect(errorsOf(ProfileFormSchema, { ...profile, senhaAtual: "antiga1" })).toEqual({
      novaSenha: "São no mínimo 6 dígitos ou caracteres",
      confirmarSenha: "Confirmação da senha é requirida",
    });
  });
});
