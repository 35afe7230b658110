import * as z from "zod/mini";

import { idField, INT32_MAX, preprocess } from "./fields.ts";
import { booleanField } from "./organisation.ts";
import {
  dateNumber,
  formatAnnualDate,
  formatWeekdays,
  parseAnnualDate,
  parseWeekdays,
  sortAnnualDates,
  sortDaysOfMonth,
  type AgendaItem,
  type AnnualDate,
  type Periodicity,
  type TimeSlot,
  type Weekday,
} from "./schedule-expansion.ts";
import {
  agendaItemIssues,
  dateField,
  MAX_CLEANINGS,
  timeField,
  toList,
  weekdaysField,
  type ScheduleIssue,
} from "./schedule-rules.ts";
import { SCHEDULE_TEXTS as T } from "./schedule-texts.ts";

/**
 * The save and update payloads of spec 001 §3 (POST /agendas/v2/saveAgenda, PUT /agendas/updateAgenda) as zod/mini
 * schemas over the field rules of ./schedule-rules.ts, their conversions to and from the domain's AgendaItem, and the
 * §5 rules named by payload field. Server-side in practice (the API's bodies, the web app's actions): the browser's
 * forms import ./schedule-rules.ts alone, whose module-level schemas are all they need (JS budget).
 */

// The periodicities the forms do not offer (Mensal, Anual): their fields live here, out of the forms' script.

/** Mensal: days 1 to 31, sorted and each once. */
export const daysOfMonthField = preprocess(
  (value) => toList(value).map((entry) => (typeof entry === "string" && /^\s*\d+\s*$/.test(entry) ? +entry : entry)),
  z.pipe(
    z
      .array(
        z
          .int({ error: T.dayOfMonthInvalid })
          .check(z.minimum(1, T.dayOfMonthInvalid), z.maximum(31, T.dayOfMonthInvalid)),
      )
      .check(z.maxLength(62, T.dayOfMonthInvalid)),
    z.transform((days: number[]) => sortDaysOfMonth(days)),
  ),
);

/** Anual: 'dd/MM' dates, clamped (29/02 is 28/02), sorted by month and day, each once. */
export const annualDatesField = preprocess(
  toList,
  z.pipe(
    z.array(z.string({ error: T.annualDateInvalid })).check(z.maxLength(732, T.annualDateInvalid)),
    z.transform((texts: string[], context) => {
      const dates: AnnualDate[] = [];
      for (const text of texts) {
        const date = parseAnnualDate(text);
        if (!date) {
          context.issues.push({ code: "custom", message: T.annualDateInvalid, input: text });
          return z.NEVER;
        }
        dates.push(date);
      }
      return sortAnnualDates(dates);
    }),
  ),
);

/** Ids the API takes from the caller's scope instead (Periodicidade's and Revisoes' Id_EmpresasFilial, their ID). */
const optionalId = z.optional(z.nullable(z.int().check(z.minimum(1), z.maximum(INT32_MAX))));

// ---------------------------------------------------------------------------------------------------------------
// Payloads of spec 001 §3: POST /agendas/v2/saveAgenda (an array holding one item) and PUT /agendas/updateAgenda

/**
 * The periodicity's days. The wire keeps the original's `type` ('12X', or 'sem' for every other kind, spec 001 §4);
 * the kinds the old form coded but never sent are ours, told apart by which list is filled: DIAS_SEMANA_2 (Semana
 * Alternada), DIAS_MES (Mensal), DATAS_ANUAIS (Anual), as the periodicities table stores them.
 */
const periodicityDayFields = {
  type: z.enum(["sem", "12X"], { error: T.periodicityInvalid }),
  DIAS_SEMANA: weekdaysField,
  DIAS_SEMANA_2: z.optional(weekdaysField),
  DIAS_MES: z.optional(daysOfMonthField),
  DATAS_ANUAIS: z.optional(annualDatesField),
};
type PeriodicityDays = {
  type: "sem" | "12X";
  DIAS_SEMANA: Weekday[];
  DIAS_SEMANA_2?: Weekday[];
  DIAS_MES?: number[];
  DATAS_ANUAIS?: AnnualDate[];
};

/** Refuses a 'sem' periodicity that fills the lists of two kinds (the API could not tell which one was meant). */
function checkPeriodicityDays(value: PeriodicityDays, context: z.core.$RefinementCtx<PeriodicityDays>) {
  if (value.type === "12X") return;
  const filled = (["DIAS_SEMANA_2", "DIAS_MES", "DATAS_ANUAIS"] as const).filter((key) => value[key]?.length);
  const mixed = filled.length > 1 || (filled.length === 1 && filled[0] !== "DIAS_SEMANA_2" && value.DIAS_SEMANA.length);
  if (mixed) context.addIssue({ code: "custom", path: [filled.at(-1)!], message: T.periodicityMixed, input: value });
}

const blank = { error: T.blankDescription };
const saveRevision = z.object(
  { HORA_INICIAL: timeField(T.startRequired), HORA_FINAL: timeField(T.endRequired), Id_EmpresasFilial: optionalId },
  blank,
);
const revisionList = <S extends z.core.$ZodType>(revision: S) =>
  z._default(z.array(revision, blank).check(z.maxLength(MAX_CLEANINGS - 1, T.cleaningsRange)), []);

/** Save-agenda payload's Periodicidade: nome 'AGENDA_{environment}_{user}_{YYYYMMDD}' (`periodicityName`). */
export const SavePeriodicidade = z
  .object(
    {
      ...periodicityDayFields,
      hora_base_inicial: timeField(T.startRequired),
      hora_base_final: timeField(T.endRequired),
      Id_EmpresasFilial: optionalId,
      nome: z.optional(z.string().check(z.maxLength(300))),
      Revisoes: revisionList(saveRevision),
    },
    blank,
  )
  .check(z.superRefine(checkPeriodicityDays));

/** One item of POST /agendas/v2/saveAgenda (spec 001 §3 'Save-agenda payload'). */
export const SaveAgendaItem = z.object({
  Id_EmpresasFilial: idField(T.companyRequired),
  Id_Environments: idField(T.environmentRequired),
  Id_Users: idField(T.collaboratorRequired),
  Periodicidade: SavePeriodicidade,
  revisionPhotos: booleanField,
  vigIni: dateField(T.vigIniRequired),
  vigFim: dateField(T.vigFimRequired),
});
export type SaveAgendaInput = z.input<typeof SaveAgendaItem>;
export type SaveAgendaPayload = z.output<typeof SaveAgendaItem>;

const updateRevision = z.object(
  {
    HORA_INICIAL: timeField(T.startRequired),
    HORA_FINAL: timeField(T.endRequired),
    ID: optionalId,
    Id_EmpresasFilial: optionalId,
  },
  blank,
);

/** Update-agenda payload's Periodicidade: the save one in capitals, with the ids of the rows it had. */
export const UpdatePeriodicidade = z
  .object(
    {
      ...periodicityDayFields,
      HORA_BASE_INICIAL: timeField(T.startRequired),
      HORA_BASE_FINAL: timeField(T.endRequired),
      ID: optionalId,
      Id_EmpresasFilial: optionalId,
      nome: z.optional(z.string().check(z.maxLength(300))),
      Revisoes: revisionList(updateRevision),
    },
    blank,
  )
  .check(z.superRefine(checkPeriodicityDays));

/** PUT /agendas/updateAgenda (spec 001 §3 'Update-agenda payload'). ATIVO left out keeps the agenda as it is. */
export const UpdateAgenda = z.object({
  ATIVO: z.optional(booleanField),
  ID: idField(T.blankDescription),
  Id_EmpresasFilial: idField(T.companyRequired),
  Id_Environments: idField(T.environmentRequired),
  Id_Users: idField(T.collaboratorRequired),
  Periodicidade: UpdatePeriodicidade,
  revisionPhotos: booleanField,
  vigIni: dateField(T.vigIniRequired),
  vigFim: dateField(T.vigFimRequired),
});
export type UpdateAgendaInput = z.input<typeof UpdateAgenda>;
export type UpdateAgendaPayload = z.output<typeof UpdateAgenda>;

/** The kind a parsed wire periodicity stands for (12X by its type; for 'sem', the list that is filled). */
export function periodicityFromWire(days: PeriodicityDays): Periodicity {
  if (days.type === "12X") return { kind: "12X" };
  if (days.DIAS_MES?.length) return { kind: "Mensal", daysOfMonth: days.DIAS_MES };
  if (days.DATAS_ANUAIS?.length) return { kind: "Anual", dates: days.DATAS_ANUAIS };
  if (days.DIAS_SEMANA_2?.length)
    return { kind: "Semana Alternada", weekdays: days.DIAS_SEMANA, weekdays2: days.DIAS_SEMANA_2 };
  return { kind: "Semanal", weekdays: days.DIAS_SEMANA };
}

/**
 * A periodicity as the wire and the periodicities table hold it (type, dias_semana, dias_semana_2, dias_mes,
 * datas_anuais): the lists of the other kinds empty.
 */
export function periodicityToWire(periodicity: Periodicity) {
  const kind = periodicity.kind;
  return {
    type: kind === "12X" ? ("12X" as const) : ("sem" as const),
    DIAS_SEMANA: kind === "Semanal" || kind === "Semana Alternada" ? formatWeekdays(periodicity.weekdays) : "",
    DIAS_SEMANA_2: kind === "Semana Alternada" ? formatWeekdays(periodicity.weekdays2) : "",
    DIAS_MES: kind === "Mensal" ? sortDaysOfMonth(periodicity.daysOfMonth) : [],
    DATAS_ANUAIS: kind === "Anual" ? sortAnnualDates(periodicity.dates).map(formatAnnualDate) : [],
  };
}

const slotOf = (revision: { HORA_INICIAL: string; HORA_FINAL: string }): TimeSlot => ({
  horaIni: revision.HORA_INICIAL,
  horaFim: revision.HORA_FINAL,
});

/** A parsed save payload as the agenda item the rules check and `expandAgenda` expands. */
export function agendaItemFromSave(payload: SaveAgendaPayload): AgendaItem {
  const periodicidade = payload.Periodicidade;
  return {
    periodicity: periodicityFromWire(periodicidade),
    main: { horaIni: periodicidade.hora_base_inicial, horaFim: periodicidade.hora_base_final },
    revisions: periodicidade.Revisoes.map(slotOf),
    vigIni: payload.vigIni,
    vigFim: payload.vigFim,
    revisionPhotos: payload.revisionPhotos,
  };
}

/** A parsed update payload as an agenda item. */
export function agendaItemFromUpdate(payload: UpdateAgendaPayload): AgendaItem {
  const periodicidade = payload.Periodicidade;
  return {
    periodicity: periodicityFromWire(periodicidade),
    main: { horaIni: periodicidade.HORA_BASE_INICIAL, horaFim: periodicidade.HORA_BASE_FINAL },
    revisions: periodicidade.Revisoes.map(slotOf),
    vigIni: payload.vigIni,
    vigFim: payload.vigFim,
    revisionPhotos: payload.revisionPhotos,
  };
}

/** An agenda's periodicity, revisions and validity as the tables store them (times 'HH:mm:ss'). */
export type StoredAgenda = {
  type: "sem" | "12X";
  dias_semana: string;
  dias_semana_2: string;
  dias_mes: number[];
  datas_anuais: string[];
  hora_base_inicial: string;
  hora_base_final: string;
  revisions: readonly { hora_inicial: string; hora_final: string }[];
  revision_photos: boolean;
  vig_ini: string;
  vig_fim: string;
};

/** A stored agenda as the item `expandAgenda` expands (what its bookings must match). */
export function agendaItemFromStored(stored: StoredAgenda): AgendaItem {
  return {
    periodicity: periodicityFromWire({
      type: stored.type,
      DIAS_SEMANA: parseWeekdays(stored.dias_semana) ?? [],
      DIAS_SEMANA_2: parseWeekdays(stored.dias_semana_2) ?? [],
      DIAS_MES: stored.dias_mes,
      DATAS_ANUAIS: stored.datas_anuais.map(parseAnnualDate).filter((date) => date !== null),
    }),
    main: { horaIni: stored.hora_base_inicial.slice(0, 5), horaFim: stored.hora_base_final.slice(0, 5) },
    revisions: stored.revisions.map((revision) => ({
      horaIni: revision.hora_inicial.slice(0, 5),
      horaFim: revision.hora_final.slice(0, 5),
    })),
    vigIni: stored.vig_ini,
    vigFim: stored.vig_fim,
    revisionPhotos: stored.revision_photos,
  };
}

/** Periodicidade.nome: 'AGENDA_{environment}_{user}_{YYYYMMDD}' (spec 001 §3), the date being the day it is saved. */
export function periodicityName(environment: string, user: string, today: string) {
  return `AGENDA_${environment}_${user}_${dateNumber(today)}`;
}

/** The JSON of one save-agenda item (what the web app posts for each item of its table). */
export function toSaveAgendaInput(
  item: AgendaItem,
  refs: { Id_EmpresasFilial: number; Id_Environments: number; Id_Users: number; nome?: string },
): SaveAgendaInput {
  return {
    Id_EmpresasFilial: refs.Id_EmpresasFilial,
    Id_Environments: refs.Id_Environments,
    Id_Users: refs.Id_Users,
    Periodicidade: {
      ...periodicityToWire(item.periodicity),
      hora_base_inicial: item.main.horaIni,
      hora_base_final: item.main.horaFim,
      Id_EmpresasFilial: refs.Id_EmpresasFilial,
      ...(refs.nome === undefined ? {} : { nome: refs.nome }),
      Revisoes: item.revisions.map((slot) => ({
        HORA_INICIAL: slot.horaIni,
        HORA_FINAL: slot.horaFim,
        Id_EmpresasFilial: refs.Id_EmpresasFilial,
      })),
    },
    revisionPhotos: item.revisionPhotos,
    vigIni: item.vigIni,
    vigFim: item.vigFim,
  };
}

/** The JSON of an update-agenda call (the edit modal's 'Salvar'); `revisionIds` are the saved revisions' ids. */
export function toUpdateAgendaInput(
  item: AgendaItem,
  refs: {
    ID: number;
    ATIVO: boolean;
    Id_EmpresasFilial: number;
    Id_Environments: number;
    Id_Users: number;
    periodicityId?: number;
    revisionIds?: readonly number[];
    nome?: string;
  },
): UpdateAgendaInput {
  return {
    ATIVO: refs.ATIVO,
    ID: refs.ID,
    Id_EmpresasFilial: refs.Id_EmpresasFilial,
    Id_Environments: refs.Id_Environments,
    Id_Users: refs.Id_Users,
    Periodicidade: {
      ...periodicityToWire(item.periodicity),
      HORA_BASE_INICIAL: item.main.horaIni,
      HORA_BASE_FINAL: item.main.horaFim,
      ID: refs.periodicityId,
      Id_EmpresasFilial: refs.Id_EmpresasFilial,
      ...(refs.nome === undefined ? {} : { nome: refs.nome }),
      Revisoes: item.revisions.map((slot, index) => ({
        HORA_INICIAL: slot.horaIni,
        HORA_FINAL: slot.horaFim,
        ID: refs.revisionIds?.[index],
        Id_EmpresasFilial: refs.Id_EmpresasFilial,
      })),
    },
    revisionPhotos: item.revisionPhotos,
    vigIni: item.vigIni,
    vigFim: item.vigFim,
  };
}

/** A path of AgendaItem as the save or update payload names it ('main.horaFim' -> 'Periodicidade.hora_base_final'). */
export function payloadField(field: string, payload: "save" | "update"): string {
  const save = payload === "save";
  const [head, index, end] = field.split(".");
  if (head === "periodicity") {
    const key = { weekdays: "DIAS_SEMANA", weekdays2: "DIAS_SEMANA_2", daysOfMonth: "DIAS_MES", dates: "DATAS_ANUAIS" };
    return `Periodicidade.${key[index as keyof typeof key] ?? index}`;
  }
  if (head === "main")
    return `Periodicidade.${index === "horaIni" ? (save ? "hora_base_inicial" : "HORA_BASE_INICIAL") : save ? "hora_base_final" : "HORA_BASE_FINAL"}`;
  if (head === "revisions")
    return index === undefined
      ? "Periodicidade.Revisoes"
      : `Periodicidade.Revisoes.${index}.${end === "horaIni" ? "HORA_INICIAL" : "HORA_FINAL"}`;
  return field;
}

/** The rules on a parsed save payload, with its field names (POST /agendas/v2/saveAgenda). */
export function saveAgendaIssues(payload: SaveAgendaPayload, context: { today: string }): ScheduleIssue[] {
  return agendaItemIssues(agendaItemFromSave(payload), { mode: "create", today: context.today }).map((issue) => ({
    ...issue,
    field: payloadField(issue.field, "save"),
  }));
}

/** The rules on a parsed update payload, with its field names (PUT /agendas/updateAgenda). */
export function updateAgendaIssues(payload: UpdateAgendaPayload, context: { originalVigIni: string }): ScheduleIssue[] {
  return agendaItemIssues(agendaItemFromUpdate(payload), {
    mode: "edit",
    originalVigIni: context.originalVigIni,
  }).map((issue) => ({ ...issue, field: payloadField(issue.field, "update") }));
}

/** The issues as a zod refinement adds them (a form schema or a request body that holds the item's fields). */
export function addScheduleIssues(issues: readonly ScheduleIssue[], context: z.core.$RefinementCtx<unknown>) {
  for (const issue of issues)
    context.addIssue({
      code: "custom",
      path: issue.field.split(".").map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
      message: issue.message,
      input: undefined,
    });
}
