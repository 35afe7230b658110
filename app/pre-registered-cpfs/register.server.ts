import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";

import { CPF_TEXTS as T, PRE_REGISTER_LEVELS, preRegisterLevelsFor } from "../../api/domain/pre-registered-cpfs";

import { INTENT, type BatchFileResult } from "~/catalogues/register-form";
import { BLANK_FIELDS_TOAST, type FormActionData } from "~/components/forms";
import { loadActiveBranches } from "~/models/branches.server";
import { createPreRegisteredCpf } from "~/models/pre-registered-cpfs.server";
import { signOutOnUnauthorized } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

import { requireCpfEditor, type CpfArgs } from "./cpfs.server";
import { CpfFormSchema } from "./form-schema";
import { importCpfFiles } from "./import.server";

/**
 * 'Cadastrar CPF's': the active branches of the company, the levels this user may give (spec 000 §6) and which of
 * the two forms shows ('Cadastro em lote' with ?modo=lote, as on the catalogue screens).
 */
export async function cpfRegisterLoader(args: CpfArgs) {
  const { api, auth } = await requireCpfEditor(args);
  const branches = await loadActiveBranches(api);
  const allowed = preRegisterLevelsFor(auth.user) as readonly number[];
  return {
    branches,
    levels: PRE_REGISTER_LEVELS.filter((level) => allowed.includes(level.id)),
    batch: new URL(args.request.url).searchParams.get("modo") === "lote",
  };
}

export type CpfRegisterActionData = FormActionData & { files?: BatchFileResult[]; branchId?: string };

/**
 * 'Cadastrar': one CPF, then back to the list with 'CPF pré-cadastrado com sucesso'; or (the batch form without JS)
 * its CSV files all at once, then the list with 'CPF's pré-cadastrados com sucesso', or this page again with each
 * file's outcome and the branch still chosen.
 */
export async function cpfRegisterAction(args: CpfArgs) {
  const { api } = await requireCpfEditor(args);
  const form = await args.request.formData();

  if (form.get("intent") === INTENT.batch) {
    const outcome = await importCpfFiles(api, form);
    if (outcome.ok) return redirectWithToast(args.context, "/pre-cadastro-usuarios", outcome.toast);
    return data<CpfRegisterActionData>(
      { toast: outcome.toast, files: outcome.files, branchId: outcome.branchId },
      { status: 400 },
    );
  }

  const submission = parseWithZod(form, { schema: CpfFormSchema, disableAutoCoercion: true });
  if (submission.status !== "success") {
    return data<CpfRegisterActionData>({ result: submission.reply(), toast: BLANK_FIELDS_TOAST }, { status: 400 });
  }
  const result = await createPreRegisteredCpf(api, submission.value);
  if (!result.ok) {
    await signOutOnUnauthorized(args.request, args.context, result.status);
    return data<CpfRegisterActionData>(
      {
        result: submission.reply({ fieldErrors: result.fieldErrors ?? {} }),
        toast: { type: "error", title: T.createFailed, description: result.message },
      },
      { status: result.status },
    );
  }
  return redirectWithToast(args.context, "/pre-cadastro-usuarios", {
    type: "success",
    title: T.created,
    description: result.data.NOME_FILIAL,
  });
}
