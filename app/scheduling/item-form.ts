import * as z from "zod/mini";

import { idField } from "../../api/domain/fields";
import {
  ALTERNATE_DAYS_TEXT,
  formatWeekdays,
  WEEKDAY_NAMES,
  type AgendaItem,
  type Weekday,
} from "../../api/domain/schedule-expansion";
import {
  agendaItemIssues,
  cleaningsCountField,
  dateField,
  DEFAULT_CLEANINGS,
  MAX_CLEANINGS,
  SCHEDULE_FIELD_TEXTS as T,
  timeField,
  weekdaysField,
  type ScheduleRuleContext,
} from "../../api/domain/schedule-rules";

/**
 * The agenda item's fields ('Criar novo item' of spec 001 §2.2 and the edit modal of §2.3) as the form posts them, and
 * their check: the API's own field rules and `agendaItemIssues` (api/domain/schedule-rules.ts), so the browser (with
 * JS) and the action (always) refuse with the API's words. Browser-safe: no server code, no full zod.
 *
 * Field names: ambiente, tipo ('Semanal' | '12X'), dias (0-6, repeated), todosDias / nenhumDia (the no-JS 'Marcar
 * todos' box, 'Desmarcar todos' once every day is ticked),
 * quantidade, inicio-{n} / fim-{n} (n = 0 for the main cleaning), fotoUnica, vigIni, vigFim (yyyy-MM-dd).
 */
export type ItemValues = {
  ambiente: string;
  tipo: "Semanal" | "12X";
  dias: string[];
  quantidade: string;
  inicio: string[];
  fim: string[];
  fotoUnica: boolean;
  vigIni: string;
  vigFim: string;
};

/** Field name → its messages ('' keys are never used); a toast for the whole step. */
export type ItemErrors = Record<string, string[]>;
export type FormToastData = { type: "error" | "info"; title: string; description?: string };

export const BLANK_TOAST: FormToastData = { type: "error", title: T.blankTitle, description: T.blankDescription };

export const TIPOS = ["Semanal", "12X"] as const;
export const TIPO_HELP = "Semanal: nos dias da semana marcados. 12X: dia sim, dia não (a partir da vigência inicial).";
export { MAX_CLEANINGS, WEEKDAY_NAMES };

/** How many time pairs to draw: the count typed, kept to 1-20 (a wrong count is the rule's message, not a crash). */
export function pairCount(quantidade: string) {
  const count = Number(quantidade);
  return Number.isInteger(count) && count >= 1 ? Math.min(count, MAX_CLEANINGS) : DEFAULT_CLEANINGS;
}

/**
 * Why the count typed is not the number of pairs drawn (25 draws 20, 0 draws 1): the rule's message, shown under the
 * field as soon as the pairs are redrawn, not only when the form is saved. Empty is no message yet (saving says it).
 */
export const countErrors = (quantidade: string) =>
  quantidade.trim() && !z.safeParse(cleaningsCountField, quantidade).success ? [T.cleaningsRange] : undefined;

/** The item fields of a posted form (or of the browser's FormData). 'Marcar todos' ticks every weekday. */
export function itemValuesOf(form: FormData): ItemValues {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const count = pairCount(text("quantidade"));
  const all = form.get("todosDias") !== null;
  const none = form.get("nenhumDia") !== null;
  return {
    ambiente: text("ambiente"),
    tipo: text("tipo") === "12X" ? "12X" : "Semanal",
    dias: all ? WEEKDAY_NAMES.map((_, index) => String(index)) : none ? [] : form.getAll("dias").map(String),
    quantidade: text("quantidade"),
    inicio: Array.from({ length: count }, (_, index) => text(`inicio-${index}`)),
    fim: Array.from({ length: count }, (_, index) => text(`fim-${index}`)),
    fotoUnica: form.get("fotoUnica") !== null,
    vigIni: text("vigIni"),
    vigFim: text("vigFim"),
  };
}

/** An empty item step ('Criar novo item'): Semanal, one cleaning, validity from today. */
export function emptyItemValues(today: string): ItemValues {
  return {
    ambiente: "",
    tipo: "Semanal",
    dias: [],
    quantidade: String(DEFAULT_CLEANINGS),
    inicio: [""],
    fim: [""],
    fotoUnica: false,
    vigIni: today,
    vigFim: "",
  };
}

/** A saved agenda item as the fields show it (the edit page). */
export function itemValuesFromItem(item: AgendaItem, ambiente: number): ItemValues {
  const slots = [item.main, ...item.revisions];
  const periodicity = item.periodicity;
  return {
    ambiente: String(ambiente),
    tipo: periodicity.kind === "12X" ? "12X" : "Semanal",
    dias: "weekdays" in periodicity ? periodicity.weekdays.map(String) : [],
    quantidade: String(slots.length),
    inicio: slots.map((slot) => slot.horaIni),
    fim: slots.map((slot) => slot.horaFim),
    fotoUnica: item.revisionPhotos,
    vigIni: item.vigIni,
    vigFim: item.vigFim,
  };
}

/** The rule's field path as the form names it ('main.horaFim' → 'fim-0', 'revisions.1.horaIni' → 'inicio-2'). */
function formFieldOf(path: string) {
  const [head, index, end] = path.split(".");
  if (head === "periodicity") return "dias";
  if (head === "main") return index === "horaIni" ? "inicio-0" : "fim-0";
  if (head === "revisions")
    return index === undefined ? "quantidade" : `${end === "horaIni" ? "inicio" : "fim"}-${Number(index) + 1}`;
  return path;
}

export type ItemCheck =
  { ok: true; item: AgendaItem; ambiente: number } | { ok: false; errors: ItemErrors; toast: FormToastData };

/**
 * The fields one by one (blank or malformed: 'Campos em branco'), then the rules across them (spec 001 §5, the toast
 * with the rule's own title). Every message goes to its field.
 */
export function checkItem(values: ItemValues, context: ScheduleRuleContext): ItemCheck {
  const errors: ItemErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  const read = <S extends z.core.$ZodType>(field: string, schema: S, value: unknown): z.output<S> | undefined => {
    const result = z.safeParse(schema, value);
    if (result.success) return result.data;
    add(field, result.error.issues[0]?.message ?? T.blankDescription);
    return undefined;
  };

  const ambiente = read("ambiente", idField(T.environmentRequired), values.ambiente);
  const weekdays: Weekday[] | undefined =
    values.tipo === "Semanal" ? read("dias", weekdaysField, values.dias) : ([] as Weekday[]);
  const count = read("quantidade", cleaningsCountField, values.quantidade);
  const starts = values.inicio.map((time, index) => read(`inicio-${index}`, timeField(T.startRequired), time));
  const ends = values.fim.map((time, index) => read(`fim-${index}`, timeField(T.endRequired), time));
  const vigIni = read("vigIni", dateField(T.vigIniRequired), values.vigIni);
  const vigFim = read("vigFim", dateField(T.vigFimRequired), values.vigFim);
  if (Object.keys(errors).length) return { ok: false, errors, toast: BLANK_TOAST };

  const slots = starts.map((start, index) => ({ horaIni: start!, horaFim: ends[index]! }));
  const item: AgendaItem = {
    periodicity: values.tipo === "12X" ? { kind: "12X" } : { kind: "Semanal", weekdays: weekdays! },
    main: slots[0],
    revisions: slots.slice(1, count),
    vigIni: vigIni!,
    vigFim: vigFim!,
    revisionPhotos: values.fotoUnica,
  };
  const issues = agendaItemIssues(item, context);
  if (!issues.length) return { ok: true, item, ambiente: ambiente! };
  for (const issue of issues) add(formFieldOf(issue.field), issue.message);
  const first = issues[0];
  return { ok: false, errors, toast: { type: "error", title: first.title, description: first.message } };
}

/** One line of the register tab's items table, as the hidden 'itens' field carries it between steps. */
export type DraftItem = { ambienteId: number; nomeAmbiente: string; item: AgendaItem };

/** The items table's 'Semana', 'Horários' and 'Vigência' cells (dd/MM/yyyy without date-fns in the browser). */
export function describeItem(draft: DraftItem) {
  const { item } = draft;
  const br = (iso: string) => iso.split("-").reverse().join("/");
  return {
    tipo: item.periodicity.kind,
    semana: item.periodicity.kind === "Semanal" ? formatWeekdays(item.periodicity.weekdays) : ALTERNATE_DAYS_TEXT,
    horarios: [item.main, ...item.revisions].map((slot) => `${slot.horaIni} - ${slot.horaFim}`),
    vigencia: `${br(item.vigIni)} até ${br(item.vigFim)}`,
  };
}

/** The register form's own fields: company and collaborator (spec 001 §5 'Form'). */
export function checkMain(values: { empresa: string; colaborador: string; itens: number }) {
  const errors: ItemErrors = {};
  const empresa = z.safeParse(idField(T.companyRequired), values.empresa);
  if (!empresa.success) errors.empresa = [T.companyRequired];
  const colaborador = z.safeParse(idField(T.collaboratorRequired), values.colaborador);
  if (!colaborador.success) errors.colaborador = [T.collaboratorRequired];
  if (values.itens === 0) errors.itens = [T.itemsRequired];
  return errors;
}
