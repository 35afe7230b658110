import * as z from "zod/mini";

import { preprocess } from "./fields.ts";
import {
  dateNumber,
  formatAnnualDate,
  minutesOf,
  parseAnnualDate,
  parseBusinessDate,
  parseTime,
  parseWeekdays,
  type AgendaItem,
} from "./schedule-expansion.ts";

/**
 * Scheduling rules (spec 001 §5 'Create schedule' and 'Edit schedule', §8 agenda messages, §9): the Portuguese texts,
 * the field rules and the save / update payloads of spec 001 §3 as zod/mini schemas (shared by the web forms and the
 * API's request bodies, as api/domain/fields.ts), and the rules across fields as plain functions answering
 * `{ field, message, title }` lists. Pure and browser-safe. Texts the spec does not give are marked 'ours' and
 * listed in docs/scheduling.md.
 */

/**
 * What one save may write (issue 22 item 2; docs/scheduling.md 'How much one save may write'): 50 items, and 20,000
 * bookings, more than a year of 54 cleanings a day, every day: a year of one collaborator's work is far below it.
 */
export const MAX_SAVE_ITEMS = 50;
export const MAX_SAVE_BOOKINGS = 20_000;

export const SCHEDULE_FIELD_TEXTS = {
  // §5 'Create schedule'
  companyRequired: "Empresa é obrigatória",
  collaboratorRequired: "Colaborador é obrigatório",
  itemsRequired: "É necessário pelo menos uma agenda.",
  startRequired: "Início é obrigatório!",
  endRequired: "Fim é obrigatório!",
  // §5 'Edit schedule' (the create form shows the same texts)
  blankTitle: "Campos em branco",
  blankDescription: "Existem campos obrigatórios não preenchidos.",
  weekdaysRequired: "Nenhum dia da semana foi selecionado",
  timeTitle: "Horário incorreto",
  timeOrderTitle: "Horários incorretos",
  timeOrder: "A ordem de horários está incorreta ou sua periodicidade está abrangendo mais de 1 dia. Favor corrigir.",
  vigIniBeforeOriginal: "A data de vigencia inicial está menor que a data anterior.",
  vigFimBeforeVigIni: "A data de vigencia final é menor que a data de vigencia inicial.",
  rangeTooLong: "O range das datas de vigencia é maior que o esperado, valor máximo de um ano.",
  // ours
  environmentRequired: "Ambiente é obrigatório",
  cleaningsRequired: "Quantidade de limpezas é obrigatória",
  cleaningsRange: "A quantidade de limpezas deve ser de 1 a 20",
  cleaningsTitle: "Quantidade de limpezas incorreta",
  vigIniRequired: "Data de vigência inicial é obrigatória",
  vigFimRequired: "Data de vigência final é obrigatória",
  vigIniPast: "A data de vigência inicial não pode ser anterior à data de hoje.",
  vigenciaTitle: "Vigência incorreta",
  dateInvalid: "Data inválida",
  timeInvalid: "Horário inválido",
  weekdayInvalid: "Dia da semana inválido",
  weekdays2Required: "Nenhum dia da segunda semana foi selecionado",
  dayOfMonthInvalid: "O dia do mês deve ser de 1 a 31",
  daysOfMonthRequired: "Nenhum dia do mês foi selecionado",
  annualDateInvalid: "Data anual inválida: informe dia (1 a 31) e mês",
  annualDatesRequired: "Nenhuma data anual foi selecionada",
  saveTooLargeHint: "Divida os itens em mais de um cadastro ou encurte a vigência.",
} as const;
const T = SCHEDULE_FIELD_TEXTS;

/** 'Horário incorreto - O 2º horário inicial está maior ou igual ao horário final' (n counts from the main slot). */
export function slotOrderMessage(n: number) {
  return `Horário incorreto - O ${n}º horário inicial está maior ou igual ao horário final`;
}

export function saveTooLargeMessage(bookings: number) {
  const n = (value: number) => value.toLocaleString("pt-BR");
  return `Este cadastro geraria ${n(bookings)} agendamentos; o limite é de ${n(MAX_SAVE_BOOKINGS)} por vez. ${T.saveTooLargeHint}`;
}

/** Cleanings per agenda item: the main one and up to 19 revisions (spec 001 §9, default 1). */
export const MAX_CLEANINGS = 20;
export const DEFAULT_CLEANINGS = 1;

// ---------------------------------------------------------------------------------------------------------------
// Field rules (forms send text, JSON sends strings, numbers and lists: both are read)

const trimmed = (value: unknown) => (typeof value === "string" ? value.trim() : (value ?? ""));

/** Text that must be there (`required`) and that `parse` reads (else `invalid`). */
function parsedText<T>(required: string, invalid: string, parse: (text: string) => T | null) {
  return preprocess(
    trimmed,
    z.pipe(
      z.string({ error: invalid }).check(z.minLength(1, required)),
      z.transform((text: string, context) => {
        const out = parse(text);
        if (out === null) {
          context.issues.push({ code: "custom", message: invalid, input: text });
          return z.NEVER;
        }
        return out;
      }),
    ),
  );
}

/** A time of day ('HH:mm', or 'HH:mm:ss' as a `time` column answers), as 'HH:mm'. */
export const timeField = (required: string) => parsedText(required, T.timeInvalid, parseTime);
/** A business date ('yyyy-MM-dd', 'dd/MM/yyyy' or an instant with its offset), as 'yyyy-MM-dd'. */
export const dateField = (required: string) => parsedText(required, T.dateInvalid, parseBusinessDate);

/** Quantidade de limpezas: 1 to 20. */
export const cleaningsCountField = preprocess(
  (value) => (typeof value !== "string" ? (value ?? undefined) : value.trim() === "" ? undefined : Number(value)),
  z
    .int({ error: (issue) => (issue.input === undefined ? T.cleaningsRequired : T.cleaningsRange) })
    .check(z.minimum(1, T.cleaningsRange), z.maximum(MAX_CLEANINGS, T.cleaningsRange)),
);

/** One value, several (a form's repeated field) or none, as a list. */
export const toList = (value: unknown): unknown[] =>
  value === undefined || value === null || value === "" ? [] : Array.isArray(value) ? value : [value];

/** DIAS_SEMANA: ' - '-joined names (the wire) or a list of names or 0-6 (a form's tick boxes), as weekdays. */
export const weekdaysField = preprocess(
  (value) => (Array.isArray(value) ? value.map(String).join(",") : trimmed(value)),
  z.pipe(
    z.string({ error: T.weekdayInvalid }),
    z.transform((text: string, context) => {
      const weekdays = parseWeekdays(text);
      if (weekdays === null) {
        context.issues.push({ code: "custom", message: T.weekdayInvalid, input: text });
        return z.NEVER;
      }
      return weekdays;
    }),
  ),
);

// ---------------------------------------------------------------------------------------------------------------
// Rules across fields (spec 001 §5)

/** One refusal: the field (a path in AgendaItem, or in the payload for `saveAgendaIssues`), its text, its title. */
export type ScheduleIssue = { field: string; message: string; title: string };

/**
 * 'create': the validity starts today or later (today in America/Fortaleza, `businessToday`). 'edit': it starts no
 * earlier than the agenda's saved start (which may be past: an agenda under way keeps its start).
 */
export type ScheduleRuleContext = { mode: "create"; today: string } | { mode: "edit"; originalVigIni: string };

/**
 * The rules of spec 001 §5 on one agenda item, in the order the form checks them; every refusal is listed (the
 * toast shows the first, a form marks each field). Times are 'HH:mm' and dates 'yyyy-MM-dd', as the field rules
 * answer.
 *
 * - the periodicity's days: a weekday for Semanal ('Nenhum dia da semana foi selecionado') and for both weeks of
 *   Semana Alternada, a day for Mensal, a date for Anual;
 * - 1 to 20 cleanings (the main one and its revisions);
 * - each slot's start before its end ('O nº horário inicial ...', n from 1 = the main slot);
 * - slots in the day's order, each starting no earlier than the previous one ends: the spec orders the start times;
 *   we also refuse overlaps, since one collaborator does them one after another (docs/scheduling.md). All within the
 *   day, so no slot crosses midnight;
 * - validity: start not before today (create) or before the saved start (edit); end not before start; at most one
 *   year, as the spec counts it: end <= start + 10000 in yyyymmdd (so 29/02/2028 may run to 28/02/2029).
 */
export function agendaItemIssues(item: AgendaItem, context: ScheduleRuleContext): ScheduleIssue[] {
  const issues: ScheduleIssue[] = [];
  const add = (field: string, message: string, title: string) => issues.push({ field, message, title });
  const periodicity = item.periodicity;

  switch (periodicity.kind) {
    case "Semanal":
      if (!periodicity.weekdays.length) add("periodicity.weekdays", T.weekdaysRequired, T.blankTitle);
      break;
    case "Semana Alternada":
      if (!periodicity.weekdays.length) add("periodicity.weekdays", T.weekdaysRequired, T.blankTitle);
      if (!periodicity.weekdays2.length) add("periodicity.weekdays2", T.weekdays2Required, T.blankTitle);
      break;
    case "Mensal":
      if (!periodicity.daysOfMonth.length) add("periodicity.daysOfMonth", T.daysOfMonthRequired, T.blankTitle);
      else if (periodicity.daysOfMonth.some((day) => !Number.isInteger(day) || day < 1 || day > 31))
        add("periodicity.daysOfMonth", T.dayOfMonthInvalid, T.blankTitle);
      break;
    case "Anual":
      if (!periodicity.dates.length) add("periodicity.dates", T.annualDatesRequired, T.blankTitle);
      else if (periodicity.dates.some((date) => parseAnnualDate(formatAnnualDate(date)) === null))
        add("periodicity.dates", T.annualDateInvalid, T.blankTitle);
      break;
  }

  const slots = [item.main, ...item.revisions];
  if (slots.length > MAX_CLEANINGS) add("revisions", T.cleaningsRange, T.cleaningsTitle);
  const fieldOf = (index: number, end: "horaIni" | "horaFim") =>
    index === 0 ? `main.${end}` : `revisions.${index - 1}.${end}`;
  slots.forEach((slot, index) => {
    if (minutesOf(slot.horaIni) >= minutesOf(slot.horaFim))
      add(fieldOf(index, "horaFim"), slotOrderMessage(index + 1), T.timeTitle);
  });
  const outOfOrder = slots.findIndex(
    (slot, index) => index > 0 && minutesOf(slot.horaIni) < minutesOf(slots[index - 1].horaFim),
  );
  if (outOfOrder > 0) add(fieldOf(outOfOrder, "horaIni"), T.timeOrder, T.timeOrderTitle);

  if (context.mode === "create" && item.vigIni < context.today) add("vigIni", T.vigIniPast, T.vigenciaTitle);
  if (context.mode === "edit" && item.vigIni < context.originalVigIni)
    add("vigIni", T.vigIniBeforeOriginal, T.vigenciaTitle);
  if (item.vigFim < item.vigIni) add("vigFim", T.vigFimBeforeVigIni, T.vigenciaTitle);
  else if (dateNumber(item.vigFim) > dateNumber(item.vigIni) + 10000) add("vigFim", T.rangeTooLong, T.vigenciaTitle);
  return issues;
}

// ---------------------------------------------------------------------------------------------------------------
// Who can be scheduled (spec 001 §2.1, §2.2, §7 'listaAsg'; docs/scheduling.md 'Who can be scheduled')

/**
 * A collaborator an agenda may be for: an active ASG (roleId 5), or a user of the old system without a role marked
 * coordenador 0 (shown as 'ASG Antigo'). The spec's 'exclude roleId 5 and coordenador 0' would leave exactly the
 * people who do the cleaning out of their own agendas; the register tab's 'ao menos um usuário ASG' and listaAsg
 * ('ASG collaborators') say the opposite, and we follow them. The API also requires the collaborator's branch to be the
 * agenda's.
 */
export function isSchedulable(user: { roleId: number | null; coordenador: number | null; ativo: number }) {
  return user.ativo === 1 && (user.roleId === 5 || (user.roleId === null && user.coordenador === 0));
}
