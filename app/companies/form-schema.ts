import * as z from "zod/mini";

import {
  birthDateField,
  cpfField,
  emailField,
  matches,
  MESSAGES,
  nameField,
  passwordField,
  phoneField,
  preprocess,
} from "../../api/domain/fields";
import { requiredLateToleranceField } from "../../api/domain/late-tolerance";
import {
  boardIdsField,
  booleanField,
  COMPANY_TEXTS,
  companyFields,
  maxUsersField,
} from "../../api/domain/organisation";

/**
 * The main-company forms' schemas (STYLE 3), built from the API's own field rules (api/domain/organisation.ts). The
 * register form names the admin's fields as spec 000 §5 does (nomeuser, nascimento ...); the action turns them into
 * the payload's userAdmin.
 */
export const CompanyRegisterSchema = z
  .object({
    ...companyFields,
    quadroIds: boardIdsField,
    nomeuser: nameField(COMPANY_TEXTS.userNameRequired),
    email: emailField,
    cpf: cpfField,
    nascimento: birthDateField,
    telefone: phoneField,
    password: passwordField,
    confirmPassword: preprocess((value) => value ?? "", z.string()),
  })
  .check(z.superRefine(matches("confirmPassword", "password", MESSAGES.passwordsDiffer)));

/** 'Editar Empresa': every company field, the active toggle, the user limit and the boards. */
export const CompanyEditSchema = z.object({
  ...companyFields,
  ativo: booleanField,
  max_number_users: maxUsersField,
  late_tolerance_minutes: requiredLateToleranceField,
  quadroIds: boardIdsField,
});

export const REGISTER_INVALID_TOAST = {
  type: "error",
  title: COMPANY_TEXTS.createFailedTitle,
  description: COMPANY_TEXTS.createInvalidDescription,
} as const;

export const EDIT_INVALID_TOAST = {
  type: "error",
  title: COMPANY_TEXTS.editInvalidTitle,
  description: COMPANY_TEXTS.editInvalidDescription,
} as const;
