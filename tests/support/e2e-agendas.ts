/**
 * Agendas for the calendar browser tests (tests/e2e/agenda-calendar.spec.ts): the demo has none yet, so each test
 * writes its own through the REST API (POST /api/agendas/v2/saveAgenda with the demo administrator's token), in
 * environments of its own named with the test's unique prefix. Searching the page for that prefix then shows only
 * this test's bookings, whatever other tests (run in parallel on the same server) schedule.
 *
 * The texts the page shows are written out here, not imported from the product: a changed text fails a test.
 */
import type { APIRequestContext } from "@playwright/test";

import { BRANCHES, type BranchKey } from "./e2e-catalogues.ts";
import { apiToken, createEnvironments } from "./e2e-environments.ts";
import { expect } from "./e2e-fixtures.ts";

export const CALENDAR_TEXTS = {
  title: "Agenda",
  empty: "Não existem agendamentos cadastrados ainda.",
  /** The day's empty text while a search is on (issue 27: the other lists' words). */
  noResults: "Nenhum resultado para a busca.",
  previous: /^Mês anterior/,
  next: /^Próximo mês/,
  strip: "Dias da semana",
  previousWeek: "Semana anterior",
  nextWeek: "Próxima semana",
  filter: "Filtrar",
} as const;

export const MONTHS = [
  "janeiro",
  "fevereiro",
  "março",
  "abril",
  "maio",
  "junho",
  "julho",
  "agosto",
  "setembro",
  "outubro",
  "novembro",
  "dezembro",
] as const;

/** Today in America/Fortaleza as 'yyyy-MM-dd' (the business day, whatever the machine's zone). */
export function businessToday() {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "America/Fortaleza" }).format(new Date());
}

/** 'yyyy-MM' of the month `offset` months from the one holding `day`. */
export function monthFrom(day: string, offset: number) {
  const [year, month] = day.split("-").map(Number);
  const index = year * 12 + (month - 1) + offset;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
}

/** 'Novembro de 2026' for '2026-11'. */
export function monthTitle(mes: string) {
  const [year, month] = mes.split("-").map(Number);
  const name = MONTHS[month - 1];
  return `${name.charAt(0).toUpperCase()}${name.slice(1)} de ${year}`;
}

/** The days of a month as 'yyyy-MM-dd' with their weekday (0 = Sunday). */
export function daysOf(mes: string) {
  const [year, month] = mes.split("-").map(Number);
  const count = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return Array.from({ length: count }, (_, index) => {
    const date = new Date(Date.UTC(year, month - 1, index + 1));
    return { iso: `${mes}-${String(index + 1).padStart(2, "0")}`, day: index + 1, weekday: date.getUTCDay() };
  });
}

/** The known agenda of the tests: Semanal, Monday to Friday, 07:00-08:00 and one revision 09:30-10:00. */
export const KNOWN_AGENDA = {
  weekdays: "Segunda - Terça - Quarta - Quinta - Sexta",
  main: { ini: "07:00", fim: "08:00" },
  revision: { ini: "09:30", fim: "10:00" },
} as const;

/** The demo ASGs the agendas are for: Sebastião (asg@demo.com.br) in Aldeota, Bruno Lima in Messejana. */
export const ASG_OF: Partial<Record<BranchKey, string>> = { aldeota: "Sebastião ASG", messejana: "Bruno Lima" };

export type CalendarAgenda = { branch: BranchKey; environment: string; asg: string; agendaId: number };

/**
 * For each branch asked: an environment '{prefix} {Branch}' and the known agenda for that branch's ASG in it, valid for
 * the whole month `mes` (which must start after today: a validity cannot start in the past).
 */
export async function createCalendarAgendas(
  request: APIRequestContext,
  prefix: string,
  mes: string,
  branches: BranchKey[],
): Promise<CalendarAgenda[]> {
  const token = await apiToken(request);
  const headers = { authorization: `Bearer ${token}` };
  const environments = branches.map((branch) => ({
    name: `${prefix} ${BRANCHES[branch].nome}`,
    andar: "Térreo",
    branch,
  }));
  const environmentIds = await createEnvironments(request, environments);
  const days = daysOf(mes);
  const agendas: CalendarAgenda[] = [];
  for (const [index, branch] of branches.entries()) {
    const branchId = BRANCHES[branch].id;
    const asgs = await request.get(`/api/agendas/v2/Agendamentos/listaAsg?filialId=${branchId}`, { headers });
    expect(asgs.status(), await asgs.text()).toBe(200);
    const asgName = ASG_OF[branch];
    const asg = ((await asgs.json()) as { id: number; nome: string }[]).find((user) => user.nome === asgName);
    if (!asg) throw new Error(`No ASG '${asgName}' in ${BRANCHES[branch].nome}`);
    const saved = await request.post("/api/agendas/v2/saveAgenda", {
      headers,
      data: [
        {
          Id_EmpresasFilial: branchId,
          Id_Environments: environmentIds[index],
          Id_Users: asg.id,
          Periodicidade: {
            type: "sem",
            DIAS_SEMANA: KNOWN_AGENDA.weekdays,
            hora_base_inicial: KNOWN_AGENDA.main.ini,
            hora_base_final: KNOWN_AGENDA.main.fim,
            Revisoes: [{ HORA_INICIAL: KNOWN_AGENDA.revision.ini, HORA_FINAL: KNOWN_AGENDA.revision.fim }],
          },
          revisionPhotos: false,
          vigIni: days[0].iso,
          vigFim: days.at(-1)!.iso,
        },
      ],
    });
    expect(saved.status(), await saved.text()).toBe(201);
    const [{ ID }] = (await saved.json()) as { ID: number }[];
    agendas.push({ branch, environment: environments[index].name, asg: asg.nome, agendaId: ID });
  }
  return agendas;
}
