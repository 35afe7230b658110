import { data } from "@remix-run/node";
import * as z from "zod/mini";

import { idField } from "../../api/domain/environments";
import { parseWeekdays } from "../../api/domain/schedule-expansion";
import { toUpdateAgendaInput } from "../../api/domain/schedule-payloads";
import { SCHEDULE_TEXTS as T } from "../../api/domain/schedule-texts";

import type { SignedInCaller } from "~/api.server";
import { failLoad } from "~/lib/fail-load.server";
import { getAgenda, listSchedulableUsers, updateAgenda, type AgendaDetail } from "~/models/agendas.server";
import { safeRedirectTo, signOutOnUnauthorized } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

import {
  AGENDAMENTOS_PATH,
  brDate,
  dayParam,
  idOf,
  loadBranchChoices,
  requireAgendamentos,
  type AgendamentosArgs,
} from "./agendamentos.server";
import {
  BLANK_TOAST,
  checkItem,
  itemValuesOf,
  type FormToastData,
  type ItemErrors,
  type ItemValues,
} from "./item-form";

export type EditActionData = {
  values: ItemValues;
  ativo: boolean;
  colaborador: string;
  errors?: ItemErrors;
  toast?: FormToastData | null;
};

async function loadAgenda(api: SignedInCaller, id: number) {
  const result = await getAgenda(api, id);
  if (!result.ok) return failLoad(api, result, T.loadFailed);
  return result.data;
}

/** The saved agenda as the fields show it. */
function valuesOf(agenda: AgendaDetail): ItemValues {
  const p = agenda.Periodicidade;
  const slots = [{ HORA_INICIAL: p.HORA_BASE_INICIAL, HORA_FINAL: p.HORA_BASE_FINAL }, ...p.Revisoes];
  return {
    ambiente: String(agenda.Id_Environments),
    tipo: p.type === "12X" ? "12X" : "Semanal",
    dias: (parseWeekdays(p.DIAS_SEMANA) ?? []).map(String),
    quantidade: String(slots.length),
    inicio: slots.map((slot) => slot.HORA_INICIAL),
    fim: slots.map((slot) => slot.HORA_FINAL),
    fotoUnica: agenda.revisionPhotos,
    vigIni: agenda.vigIni,
    vigFim: agenda.vigFim,
  };
}

/**
 * The edit-booking modal of spec 001 §2.3 as a page: opened from a card, titled with the booking's date (?dia=),
 * editing the card's agenda (GET agendas/{id}); the environment and collaborator choices are the agenda's branch's.
 */
export async function agendaEditLoader(args: AgendamentosArgs) {
  const { api } = await requireAgendamentos(args);
  const id = idOf(args.params.id, T.agendaNotFound);
  const agenda = await loadAgenda(api, id);
  const users = await listSchedulableUsers(api, { filialId: agenda.Id_EmpresasFilial });
  if (!users.ok) return failLoad(api, users, T.loadFailed);
  const choices = await loadBranchChoices(api, agenda.Id_EmpresasFilial, users.data);
  // The agenda's own collaborator stays a choice even if they are no longer schedulable (the API then says why).
  if (!choices.users.some((user) => user.id === agenda.Id_Users))
    choices.users.unshift({ id: agenda.Id_Users, nome: agenda.User.nome });
  const url = new URL(args.request.url);
  const dia = dayParam(url);
  return {
    id,
    title: dia ? brDate(dia) : "Editar agenda",
    subtitle: `${agenda.Environment.name} · ${agenda.User.nome} · ${agenda.Empresa.NOME}`,
    originalVigIni: agenda.vigIni,
    values: valuesOf(agenda),
    ativo: agenda.ATIVO,
    colaborador: String(agenda.Id_Users),
    ...choices,
    back: safeRedirectTo(url.searchParams.get("redirectTo"), AGENDAMENTOS_PATH),
  };
}

/**
 * 'Salvar': the item rules in edit mode (the saved start is the floor, spec 001 §5 'Edit schedule'), then PUT
 * agendas/updateAgenda with the saved revisions' ids; 'A agenda foi alterado com sucesso!' or the API's 400 message.
 * 'Atualizar horários' (no JS) redraws the time pairs for a new count.
 */
export async function agendaEditAction(args: AgendamentosArgs) {
  const { api } = await requireAgendamentos(args);
  const id = idOf(args.params.id, T.agendaNotFound);
  const form = await args.request.formData();
  const values = itemValuesOf(form);
  const ativo = form.get("ativo") !== null;
  const colaborador = String(form.get("colaborador") ?? "");
  const reply = (answer: Partial<EditActionData>, status = 200) =>
    data<EditActionData>({ values, ativo, colaborador, ...answer }, { status });
  if (form.get("intent") === "horarios") return reply({});

  const agenda = await loadAgenda(api, id);
  const checked = checkItem(values, { mode: "edit", originalVigIni: agenda.vigIni });
  const userOk = z.safeParse(idField(T.collaboratorRequired), colaborador).success;
  if (!checked.ok || !userOk) {
    const errors = {
      ...(checked.ok ? {} : checked.errors),
      ...(userOk ? {} : { colaborador: [T.collaboratorRequired] }),
    };
    return reply({ errors, toast: checked.ok ? BLANK_TOAST : checked.toast }, 400);
  }
  const result = await updateAgenda(
    api,
    toUpdateAgendaInput(checked.item, {
      ID: id,
      ATIVO: ativo,
      Id_EmpresasFilial: agenda.Id_EmpresasFilial,
      Id_Environments: checked.ambiente,
      Id_Users: Number(colaborador),
      periodicityId: agenda.Periodicidade.ID,
      revisionIds: agenda.Periodicidade.Revisoes.map((revision) => revision.ID),
      nome: agenda.Periodicidade.NOME,
    }),
  );
  if (!result.ok) {
    await signOutOnUnauthorized(args.request, args.context, result.status);
    const toast: FormToastData =
      result.status === 400 ? { type: "error", title: result.message } : { type: "error", title: T.editFailed };
    return reply({ toast }, result.status === 400 ? 400 : 500);
  }
  const back = safeRedirectTo(form.get("redirectTo"), AGENDAMENTOS_PATH);
  return redirectWithToast(args.context, back, { type: "success", title: T.edited });
}
