import { SCHEDULE_TEXTS as T } from "../../api/domain/schedule-texts";

import { requireAgendamentos, type AgendamentosArgs } from "./agendamentos.server";

/** The frame of /agendamentos: the title and the tabs; 'Cadastrar agendamentos' needs a main company (§2.1). */
export async function agendamentosLayoutLoader(args: AgendamentosArgs) {
  const { canRegister } = await requireAgendamentos(args);
  // Texts travel as data, so the frame's bundle does not need the domain module.
  return { canRegister, texts: { listTab: T.listTab, registerTab: T.registerTab } };
}
