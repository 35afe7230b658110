import {
  CPF_TEXTS as T,
  STATUS_ACTION_CODES,
  STATUS_ACTION_LABELS,
  type StatusAction,
} from "../../api/domain/pre-registered-cpfs";

import { failLoad } from "~/lib/fail-load.server";
import { changePreRegisteredCpfStatus, listPreRegisteredCpfs } from "~/models/pre-registered-cpfs.server";
import { safeRedirectTo, signOutOnUnauthorized } from "~/session.server";
import { redirectWithToast, type ToastInput } from "~/toast.server";

import { requireCpfEditor, type CpfArgs } from "./cpfs.server";

const NONE_SELECTED: ToastInput = { type: "info", title: T.noneSelectedTitle, description: T.noneSelectedDescription };

function readSelection(values: URLSearchParams | FormData) {
  const acao = String(values.get("acao") ?? "");
  const cpfs = [
    ...new Set(
      values
        .getAll("cpf")
        .map(String)
        .filter((cpf) => /^\d{11}$/.test(cpf)),
    ),
  ];
  const action = (STATUS_ACTION_CODES as readonly string[]).includes(acao) ? (acao as StatusAction) : null;
  return { action, cpfs, back: safeRedirectTo(values.get("redirectTo"), "/pre-cadastro-usuarios") };
}

/**
 * The confirmation step of 'Status do(s) Usuário(s)' (a page, so it works without JS): the ticked CPFs and the
 * question. Nothing ticked goes back with 'Nenhum registro selecionado' (spec 000 §5).
 */
export async function cpfStatusLoader(args: CpfArgs) {
  const { api } = await requireCpfEditor(args);
  const { action, cpfs, back } = readSelection(new URL(args.request.url).searchParams);
  if (!action) throw await redirectWithToast(args.context, back, { type: "error", title: T.statusFailed });
  if (cpfs.length === 0) throw await redirectWithToast(args.context, back, NONE_SELECTED);
  const all = await listPreRegisteredCpfs(api);
  if (!all.ok) return failLoad(api, all, T.unexpectedDescription);
  const selected = all.data.filter((row) => cpfs.includes(row.CPF));
  if (selected.length === 0) throw await redirectWithToast(args.context, back, NONE_SELECTED);
  return { action, ...STATUS_ACTION_LABELS[action], selected, back };
}

/** 'Sim': the API changes them all or none; the toasts of spec 000 §8. */
export async function cpfStatusAction(args: CpfArgs) {
  const { api } = await requireCpfEditor(args);
  const { action, cpfs, back } = readSelection(await args.request.formData());
  if (cpfs.length === 0) return redirectWithToast(args.context, back, NONE_SELECTED);
  if (!action) return redirectWithToast(args.context, back, { type: "error", title: T.statusFailed });
  const result = await changePreRegisteredCpfStatus(api, { acao: [action], cpf: cpfs });
  if (result.ok) return redirectWithToast(args.context, back, { type: "success", title: T.statusChanged });
  await signOutOnUnauthorized(args.request, args.context, result.status);
  if (result.status === 403 && result.message === T.blockedDescription)
    return redirectWithToast(args.context, back, {
      type: "error",
      title: T.blockedTitle,
      description: T.blockedDescription,
    });
  if (result.status >= 500)
    return redirectWithToast(args.context, back, {
      type: "error",
      title: T.unexpectedTitle,
      description: T.unexpectedDescription,
    });
  return redirectWithToast(args.context, back, { type: "error", title: T.statusFailed, description: result.message });
}
