/**
 * The scheduling rules (api/domain/schedule-rules.ts, spec 001 §3 payloads, §5 'Create schedule' and 'Edit schedule',
 * §8, §9): each message with an example, the field rules and payload schemas, and properties with fast-check (a valid
 * item passes, breaking one rule gives that rule's message, a payload survives the trip through its JSON).
 */
import { addDays, formatISO, parseISO } from "date-fns";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import * as z from "zod/mini";

import {
  expandAgenda,
  minutesOf,
  type AgendaItem,
  type Periodicity,
  type TimeSlot,
  type Weekday,
} from "../../api/domain/schedule-expansion.ts";
import {
  addScheduleIssues,
  agendaItemFromSave,
  agendaItemFromUpdate,
  annualDatesField,
  daysOfMonthField,
  payloadField,
  periodicityFromWire,
  periodicityName,
  periodicityToWire,
  SaveAgendaItem,
  saveAgendaIssues,
  toSaveAgendaInput,
  toUpdateAgendaInput,
  UpdateAgenda,
  updateAgendaIssues,
} from "../../api/domain/schedule-payloads.ts";
import {
  agendaItemIssues,
  cleaningsCountField,
  dateField,
  MAX_CLEANINGS,
  slotOrderMessage,
  timeField,
  weekdaysField,
  type ScheduleRuleContext,
} from "../../api/domain/schedule-rules.ts";
import { SCHEDULE_TEXTS as T } from "../../api/domain/schedule-texts.ts";

const NUM_RUNS = 200;
const TODAY = "2026-03-10";
const CREATE: ScheduleRuleContext = { mode: "create", today: TODAY };

const base: AgendaItem = {
  periodicity: { kind: "Semanal", weekdays: [1, 3, 5] },
  main: { horaIni: "08:00", horaFim: "09:00" },
  revisions: [
    { horaIni: "10:00", horaFim: "10:30" },
    { horaIni: "14:00", horaFim: "14:30" },
  ],
  vigIni: TODAY,
  vigFim: "2026-06-30",
  revisionPhotos: true,
};
const issuesOf = (change: Partial<AgendaItem>, context: ScheduleRuleContext = CREATE) =>
  agendaItemIssues({ ...base, ...change }, context).map(({ field, message }) => `${field}: ${message}`);

function check(schema: z.ZodMiniType, value: unknown) {
  const result = schema.safeParse(value);
  return result.success ? { value: result.data } : { error: result.error.issues[0].message };
}

describe("spec 001 §5 and §8 texts, word for word", () => {
  test("create and edit", () => {
    expect(T.companyRequired).toBe("Empresa é obrigatória");
    expect(T.collaboratorRequired).toBe("Colaborador é obrigatório");
    expect(T.itemsRequired).toBe("É necessário pelo menos uma agenda.");
    expect(T.startRequired).toBe("Início é obrigatório!");
    expect(T.endRequired).toBe("Fim é obrigatório!");
    expect(T.weekdaysRequired).toBe("Nenhum dia da semana foi selecionado");
    expect(slotOrderMessage(3)).toBe("Horário incorreto - O 3º horário inicial está maior ou igual ao horário final");
    expect(T.timeOrder).toBe(
      "A ordem de horários está incorreta ou sua periodicidade está abrangendo mais de 1 dia. Favor corrigir.",
    );
    expect(T.vigIniBeforeOriginal).toBe("A data de vigencia inicial está menor que a data anterior.");
    expect(T.vigFimBeforeVigIni).toBe("A data de vigencia final é menor que a data de vigencia inicial.");
    expect(T.rangeTooLong).toBe("O range das datas de vigencia é maior que o esperado, valor máximo de um ano.");
  });

  test("§8 agenda messages", () => {
    expect(T.created).toBe("O agendamento foi cadastrado com sucesso e já pode ser visualizado no calendário");
    expect(T.createFailed).toBe("Ocorreu um erro ao cadastrar o agendamento, tente novamente");
    expect(T.edited).toBe("A agenda foi alterado com sucesso!");
    expect(T.editFailed).toBe("Ocorreu um erro ao editar o agenda, tente novamente");
    expect(T.deleted).toBe("Agendamento deletado com sucesso");
    expect(T.deleteFailed).toBe("Ocoreu um erro ao deletar o agendamento.");
    expect(T.loadFailed).toBe("Erro ao carregar dados, favor recarregue a página.");
    expect(T.calendarEmpty).toBe("Não existem agendamentos cadastrados ainda.");
  });
});

describe("rules across fields", () => {
  test("a valid item has no issue", () => {
    expect(agendaItemIssues(base, CREATE)).toEqual([]);
  });

  test("the periodicity's days are required, with the kind's message", () => {
    expect(issuesOf({ periodicity: { kind: "Semanal", weekdays: [] } })).toEqual([
      "periodicity.weekdays: Nenhum dia da semana foi selecionado",
    ]);
    expect(issuesOf({ periodicity: { kind: "Semana Alternada", weekdays: [], weekdays2: [] } })).toEqual([
      "periodicity.weekdays: Nenhum dia da semana foi selecionado",
      `periodicity.weekdays2: ${T.weekdays2Required}`,
    ]);
    expect(issuesOf({ periodicity: { kind: "Mensal", daysOfMonth: [] } })).toEqual([
      `periodicity.daysOfMonth: ${T.daysOfMonthRequired}`,
    ]);
    expect(issuesOf({ periodicity: { kind: "Mensal", daysOfMonth: [0, 32] } })).toEqual([
      `periodicity.daysOfMonth: ${T.dayOfMonthInvalid}`,
    ]);
    expect(issuesOf({ periodicity: { kind: "Anual", dates: [] } })).toEqual([
      `periodicity.dates: ${T.annualDatesRequired}`,
    ]);
    expect(issuesOf({ periodicity: { kind: "Anual", dates: [{ day: 1, month: 13 }] } })).toEqual([
      `periodicity.dates: ${T.annualDateInvalid}`,
    ]);
    expect(issuesOf({ periodicity: { kind: "12X" } })).toEqual([]);
  });

  test("the blank ones carry the title 'Campos em branco'", () => {
    const [issue] = agendaItemIssues({ ...base, periodicity: { kind: "Semanal", weekdays: [] } }, CREATE);
    expect(issue.title).toBe("Campos em branco");
  });

  test("at most 20 cleanings (the main one and 19 revisions)", () => {
    // From 09:00, 45 minutes apart: 19 revisions end at 22:50.
    const at = (minutes: number) =>
      `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
    const slots = (count: number) =>
      Array.from({ length: count }, (_, index) => ({ horaIni: at(540 + 45 * index), horaFim: at(560 + 45 * index) }));
    expect(issuesOf({ revisions: slots(MAX_CLEANINGS - 1) })).toEqual([]);
    expect(issuesOf({ revisions: slots(MAX_CLEANINGS) })).toEqual([`revisions: ${T.cleaningsRange}`]);
  });

  test("each start before its end, numbered from the main slot ('Horário incorreto')", () => {
    expect(issuesOf({ main: { horaIni: "09:00", horaFim: "09:00" } })).toEqual([
      `main.horaFim: ${slotOrderMessage(1)}`,
    ]);
    const issues = agendaItemIssues(
      { ...base, revisions: [base.revisions[0], { horaIni: "14:30", horaFim: "14:00" }] },
      CREATE,
    );
    expect(issues).toEqual([
      { field: "revisions.1.horaFim", message: slotOrderMessage(3), title: "Horário incorreto" },
    ]);
  });

  test("slots in the day's order, none overlapping ('Horários incorretos')", () => {
    const order = (revisions: TimeSlot[]) => agendaItemIssues({ ...base, revisions }, CREATE);
    expect(order([{ horaIni: "07:00", horaFim: "07:30" }])).toEqual([
      { field: "revisions.0.horaIni", message: T.timeOrder, title: "Horários incorretos" },
    ]);
    // Overlapping the main slot (08:00-09:00).
    expect(order([{ horaIni: "08:30", horaFim: "10:00" }]).map((issue) => issue.message)).toEqual([T.timeOrder]);
    // A revision may start as the previous slot ends.
    expect(order([{ horaIni: "09:00", horaFim: "10:00" }])).toEqual([]);
    // A revision 'after midnight' is before the main slot: the item would span more than a day.
    expect(order([{ horaIni: "00:30", horaFim: "01:00" }]).map((issue) => issue.message)).toEqual([T.timeOrder]);
  });

  test("create: the validity starts today or later (today in Fortaleza)", () => {
    expect(issuesOf({ vigIni: "2026-03-09" })).toEqual([`vigIni: ${T.vigIniPast}`]);
    expect(issuesOf({ vigIni: TODAY, vigFim: TODAY })).toEqual([]);
  });

  test("edit: the start no earlier than the saved one, which may be past", () => {
    const edit: ScheduleRuleContext = { mode: "edit", originalVigIni: "2026-01-05" };
    expect(issuesOf({ vigIni: "2026-01-04" }, edit)).toEqual([
      "vigIni: A data de vigencia inicial está menor que a data anterior.",
    ]);
    expect(issuesOf({ vigIni: "2026-01-05" }, edit)).toEqual([]);
    expect(issuesOf({ vigIni: "2026-02-01" }, edit)).toEqual([]);
  });

  test("the end not before the start", () => {
    expect(issuesOf({ vigFim: "2026-03-09" })).toEqual([
      "vigFim: A data de vigencia final é menor que a data de vigencia inicial.",
    ]);
  });

  test("at most one year: end <= start + 10000 in yyyymmdd", () => {
    expect(issuesOf({ vigFim: "2027-03-10" })).toEqual([]);
    expect(issuesOf({ vigFim: "2027-03-11" })).toEqual([
      "vigFim: O range das datas de vigencia é maior que o esperado, valor máximo de um ano.",
    ]);
    const leap = { mode: "create", today: "2028-02-29" } as const;
    expect(issuesOf({ vigIni: "2028-02-29", vigFim: "2029-02-28" }, leap)).toEqual([]);
    expect(issuesOf({ vigIni: "2028-02-29", vigFim: "2029-03-01" }, leap)).toEqual([`vigFim: ${T.rangeTooLong}`]);
  });

  test("every refusal is listed, in the form's order", () => {
    expect(
      issuesOf({
        periodicity: { kind: "Semanal", weekdays: [] },
        main: { horaIni: "10:00", horaFim: "09:00" },
        revisions: [],
        vigIni: "2026-03-01",
        vigFim: "2026-02-01",
      }).map((issue) => issue.split(": ")[0]),
    ).toEqual(["periodicity.weekdays", "main.horaFim", "vigIni", "vigFim"]);
  });
});

describe("field rules", () => {
  test("times: required with the spec's texts, read as 'HH:mm'", () => {
    expect(check(timeField(T.startRequired), "")).toEqual({ error: "Início é obrigatório!" });
    expect(check(timeField(T.endRequired), undefined)).toEqual({ error: "Fim é obrigatório!" });
    expect(check(timeField(T.startRequired), "25:00")).toEqual({ error: T.timeInvalid });
    expect(check(timeField(T.startRequired), " 7:30 ")).toEqual({ value: "07:30" });
    expect(check(timeField(T.startRequired), "07:30:00")).toEqual({ value: "07:30" });
  });

  test("dates", () => {
    expect(check(dateField(T.vigIniRequired), "")).toEqual({ error: T.vigIniRequired });
    expect(check(dateField(T.vigIniRequired), "31/02/2026")).toEqual({ error: T.dateInvalid });
    expect(check(dateField(T.vigIniRequired), "10/03/2026")).toEqual({ value: "2026-03-10" });
  });

  test("cleanings count 1 to 20", () => {
    expect(check(cleaningsCountField, "")).toEqual({ error: T.cleaningsRequired });
    expect(check(cleaningsCountField, "0")).toEqual({ error: T.cleaningsRange });
    expect(check(cleaningsCountField, 21)).toEqual({ error: T.cleaningsRange });
    expect(check(cleaningsCountField, "2.5")).toEqual({ error: T.cleaningsRange });
    expect(check(cleaningsCountField, "20")).toEqual({ value: 20 });
  });

  test("weekdays from the wire's names or a form's tick boxes", () => {
    expect(check(weekdaysField, "Sexta - Segunda")).toEqual({ value: [1, 5] });
    expect(check(weekdaysField, ["0", "6"])).toEqual({ value: [0, 6] });
    expect(check(weekdaysField, "3")).toEqual({ value: [3] });
    expect(check(weekdaysField, undefined)).toEqual({ value: [] });
    expect(check(weekdaysField, "Segunda - Feriado")).toEqual({ error: T.weekdayInvalid });
  });

  test("days of month 1 to 31, sorted and each once", () => {
    expect(check(daysOfMonthField, [31, "5", 5])).toEqual({ value: [5, 31] });
    expect(check(daysOfMonthField, "12")).toEqual({ value: [12] });
    expect(check(daysOfMonthField, [0])).toEqual({ error: "O dia do mês deve ser de 1 a 31" });
    expect(check(daysOfMonthField, [32])).toEqual({ error: T.dayOfMonthInvalid });
  });

  test("annual dates 'dd/MM', clamped, sorted and each once", () => {
    expect(check(annualDatesField, ["29/02", "28/02", "31/04", "01/01"])).toEqual({
      value: [
        { day: 1, month: 1 },
        { day: 28, month: 2 },
        { day: 30, month: 4 },
      ],
    });
    expect(check(annualDatesField, ["31/13"])).toEqual({ error: T.annualDateInvalid });
  });
});

const saveInput = {
  Id_EmpresasFilial: 3,
  Id_Environments: 7,
  Id_Users: 11,
  Periodicidade: {
    hora_base_inicial: "08:00",
    hora_base_final: "09:00",
    Id_EmpresasFilial: 3,
    nome: "AGENDA_Recepção_Maria_20260310",
    type: "sem",
    DIAS_SEMANA: "Segunda - Quarta - Sexta",
    Revisoes: [{ HORA_INICIAL: "10:00", HORA_FINAL: "10:30", Id_EmpresasFilial: 3 }],
  },
  revisionPhotos: true,
  vigIni: "2026-03-10",
  vigFim: "2026-06-30",
};

describe("payloads of spec 001 §3", () => {
  test("a save payload as the original client sends it", () => {
    const parsed = SaveAgendaItem.parse(saveInput);
    expect(agendaItemFromSave(parsed)).toEqual({
      periodicity: { kind: "Semanal", weekdays: [1, 3, 5] },
      main: { horaIni: "08:00", horaFim: "09:00" },
      revisions: [{ horaIni: "10:00", horaFim: "10:30" }],
      vigIni: "2026-03-10",
      vigFim: "2026-06-30",
      revisionPhotos: true,
    });
    expect(saveAgendaIssues(parsed, { today: TODAY })).toEqual([]);
  });

  test("missing fields give the form's messages", () => {
    const messages = (value: unknown) => {
      const result = SaveAgendaItem.safeParse(value);
      return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    };
    expect(messages({})).toEqual([
      "Id_EmpresasFilial: Empresa é obrigatória",
      `Id_Environments: ${T.environmentRequired}`,
      "Id_Users: Colaborador é obrigatório",
      "Periodicidade: Existem campos obrigatórios não preenchidos.",
      `vigIni: ${T.vigIniRequired}`,
      `vigFim: ${T.vigFimRequired}`,
    ]);
    expect(
      messages({
        ...saveInput,
        Periodicidade: { ...saveInput.Periodicidade, hora_base_inicial: "", Revisoes: [{ HORA_INICIAL: "10:00" }] },
      }),
    ).toEqual([
      "Periodicidade.hora_base_inicial: Início é obrigatório!",
      "Periodicidade.Revisoes.0.HORA_FINAL: Fim é obrigatório!",
    ]);
  });

  test("type is 'sem' or '12X'; more than 19 revisions is refused before any rule runs", () => {
    const type = SaveAgendaItem.safeParse({
      ...saveInput,
      Periodicidade: { ...saveInput.Periodicidade, type: "Mensal" },
    });
    expect(type.error?.issues[0].message).toBe(T.periodicityInvalid);
    const revision = { HORA_INICIAL: "10:00", HORA_FINAL: "10:30" };
    const many = { ...saveInput.Periodicidade, Revisoes: Array.from({ length: 20 }, () => revision) };
    expect(SaveAgendaItem.safeParse({ ...saveInput, Periodicidade: many }).error?.issues[0].message).toBe(
      T.cleaningsRange,
    );
  });

  test("the kinds the original never sent are told apart by the list that is filled", () => {
    const kind = (periodicidade: object) =>
      agendaItemFromSave(
        SaveAgendaItem.parse({ ...saveInput, Periodicidade: { ...saveInput.Periodicidade, ...periodicidade } }),
      ).periodicity;
    expect(kind({ type: "12X" })).toEqual({ kind: "12X" });
    expect(kind({ DIAS_SEMANA_2: "Terça" })).toEqual({ kind: "Semana Alternada", weekdays: [1, 3, 5], weekdays2: [2] });
    expect(kind({ DIAS_SEMANA: "", DIAS_MES: [15, 1] })).toEqual({ kind: "Mensal", daysOfMonth: [1, 15] });
    expect(kind({ DIAS_SEMANA: "", DATAS_ANUAIS: ["29/02"] })).toEqual({
      kind: "Anual",
      dates: [{ day: 28, month: 2 }],
    });
    const mixed = SaveAgendaItem.safeParse({
      ...saveInput,
      Periodicidade: { ...saveInput.Periodicidade, DIAS_MES: [1] },
    });
    expect(mixed.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["Periodicidade.DIAS_MES", T.periodicityMixed],
    ]);
  });

  test("rule issues named as the save and the update payloads name their fields", () => {
    const parsed = SaveAgendaItem.parse({
      ...saveInput,
      Periodicidade: { ...saveInput.Periodicidade, DIAS_SEMANA: "", hora_base_final: "07:00" },
      vigIni: "2026-03-01",
    });
    expect(saveAgendaIssues(parsed, { today: TODAY }).map((issue) => issue.field)).toEqual([
      "Periodicidade.DIAS_SEMANA",
      "Periodicidade.hora_base_final",
      "vigIni",
    ]);
    expect(payloadField("main.horaIni", "update")).toBe("Periodicidade.HORA_BASE_INICIAL");
    expect(payloadField("revisions.2.horaFim", "update")).toBe("Periodicidade.Revisoes.2.HORA_FINAL");
    expect(payloadField("revisions", "save")).toBe("Periodicidade.Revisoes");
    expect(payloadField("periodicity.dates", "save")).toBe("Periodicidade.DATAS_ANUAIS");
  });

  test("an update payload: capitals, ids, ATIVO; the start checked against the saved one", () => {
    const input = toUpdateAgendaInput(agendaItemFromSave(SaveAgendaItem.parse(saveInput)), {
      ID: 40,
      ATIVO: false,
      Id_EmpresasFilial: 3,
      Id_Environments: 7,
      Id_Users: 11,
      periodicityId: 41,
      revisionIds: [42],
    });
    expect(input.Periodicidade).toMatchObject({
      HORA_BASE_INICIAL: "08:00",
      ID: 41,
      Revisoes: [{ HORA_INICIAL: "10:00", ID: 42 }],
    });
    const parsed = UpdateAgenda.parse(input);
    expect(parsed.ATIVO).toBe(false);
    expect(UpdateAgenda.parse({ ...input, ATIVO: undefined }).ATIVO).toBeUndefined();
    expect(updateAgendaIssues(parsed, { originalVigIni: "2026-03-10" })).toEqual([]);
    expect(updateAgendaIssues(parsed, { originalVigIni: "2026-03-11" })).toEqual([
      { field: "vigIni", message: T.vigIniBeforeOriginal, title: T.vigenciaTitle },
    ]);
    expect(agendaItemFromUpdate(parsed)).toEqual(agendaItemFromSave(SaveAgendaItem.parse(saveInput)));
  });

  test("the issues as a zod refinement (paths with array indexes)", () => {
    const schema = SaveAgendaItem.check(
      z.superRefine((value, context) => addScheduleIssues(saveAgendaIssues(value, { today: TODAY }), context)),
    );
    const input = {
      ...saveInput,
      Periodicidade: { ...saveInput.Periodicidade, Revisoes: [{ HORA_INICIAL: "10:00", HORA_FINAL: "09:59" }] },
    };
    expect(schema.safeParse(input).error?.issues.map((issue) => issue.path)).toEqual([
      ["Periodicidade", "Revisoes", 0, "HORA_FINAL"],
    ]);
  });

  test("Periodicidade.nome", () => {
    expect(periodicityName("Recepção", "Maria", "2026-03-10")).toBe("AGENDA_Recepção_Maria_20260310");
  });

  test("the periodicity as the wire and the table hold it", () => {
    expect(periodicityToWire({ kind: "Semana Alternada", weekdays: [5, 1], weekdays2: [0] })).toEqual({
      type: "sem",
      DIAS_SEMANA: "Segunda - Sexta",
      DIAS_SEMANA_2: "Domingo",
      DIAS_MES: [],
      DATAS_ANUAIS: [],
    });
    expect(periodicityToWire({ kind: "Anual", dates: [{ day: 31, month: 4 }] }).DATAS_ANUAIS).toEqual(["30/04"]);
    expect(periodicityToWire({ kind: "12X" }).type).toBe("12X");
    expect(periodicityFromWire({ type: "12X", DIAS_SEMANA: [1] })).toEqual({ kind: "12X" });
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Properties

const dateAt = (offset: number) => formatISO(addDays(parseISO(TODAY), offset), { representation: "date" });
const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

const weekdaySet = fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 7 }) as fc.Arbitrary<
  Weekday[]
>;
const periodicityArb: fc.Arbitrary<Periodicity> = fc.oneof(
  weekdaySet.map((weekdays) => ({ kind: "Semanal" as const, weekdays: [...weekdays].sort() })),
  fc.constant({ kind: "12X" as const }),
  fc.tuple(weekdaySet, weekdaySet).map(([weekdays, weekdays2]) => ({
    kind: "Semana Alternada" as const,
    weekdays: [...weekdays].sort(),
    weekdays2: [...weekdays2].sort(),
  })),
  fc
    .uniqueArray(fc.integer({ min: 1, max: 31 }), { minLength: 1, maxLength: 31 })
    .map((days) => ({ kind: "Mensal" as const, daysOfMonth: days.sort((a, b) => a - b) })),
  fc
    .uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 12 })
    .chain((months) =>
      fc.tuple(
        ...months
          .sort((a, b) => a - b)
          .map((month) => fc.integer({ min: 1, max: month === 2 ? 28 : 30 }).map((day) => ({ day, month }))),
      ),
    )
    .map((dates) => ({ kind: "Anual" as const, dates })),
);
/** A valid item: 1 to 20 ascending slots, validity from today to at most a year on. */
const validItemArb: fc.Arbitrary<AgendaItem> = fc
  .record({
    periodicity: periodicityArb,
    minutes: fc
      .integer({ min: 1, max: MAX_CLEANINGS })
      .chain((count) =>
        fc.uniqueArray(fc.integer({ min: 0, max: 1439 }), { minLength: 2 * count, maxLength: 2 * count }),
      ),
    start: fc.integer({ min: 0, max: 400 }),
    length: fc.integer({ min: 0, max: 365 }),
    revisionPhotos: fc.boolean(),
  })
  .map(({ periodicity, minutes, start, length, revisionPhotos }) => {
    const sorted = [...minutes].sort((a, b) => a - b);
    const slots = Array.from({ length: sorted.length / 2 }, (_, index) => ({
      horaIni: hhmm(sorted[2 * index]),
      horaFim: hhmm(sorted[2 * index + 1]),
    }));
    return {
      periodicity,
      main: slots[0],
      revisions: slots.slice(1),
      vigIni: dateAt(start),
      vigFim: dateAt(start + length),
      revisionPhotos,
    };
  });

describe("properties of the rules", () => {
  test("a valid item passes, and its bookings keep the slots ascending", () => {
    fc.assert(
      fc.property(validItemArb, (item) => {
        expect(agendaItemIssues(item, CREATE)).toEqual([]);
        const [booking] = expandAgenda(item, { from: item.vigIni, to: item.vigFim });
        if (booking)
          expect(booking.revisions.every((slot) => minutesOf(slot.horaIni) >= minutesOf(booking.main.horaFim))).toBe(
            true,
          );
      }),
      { numRuns: NUM_RUNS },
    );
  });

  test("swapping a slot's start and end gives 'O nº horário inicial ...' for that slot", () => {
    fc.assert(
      fc.property(validItemArb, fc.nat(), (item, pick) => {
        const slots = [item.main, ...item.revisions];
        const index = pick % slots.length;
        const broken = slots.map((slot, i) => (i === index ? { horaIni: slot.horaFim, horaFim: slot.horaIni } : slot));
        const issues = agendaItemIssues({ ...item, main: broken[0], revisions: broken.slice(1) }, CREATE);
        expect(issues.some((issue) => issue.message === slotOrderMessage(index + 1))).toBe(true);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  test("swapping two slots gives the order message, and only time issues", () => {
    fc.assert(
      fc.property(
        validItemArb.filter((item) => item.revisions.length > 0),
        fc.nat(),
        (item, pick) => {
          const slots = [item.main, ...item.revisions];
          const index = 1 + (pick % (slots.length - 1));
          [slots[index - 1], slots[index]] = [slots[index], slots[index - 1]];
          const issues = agendaItemIssues({ ...item, main: slots[0], revisions: slots.slice(1) }, CREATE);
          expect(issues.map((issue) => issue.message)).toEqual([T.timeOrder]);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  test("validity: a past start, an end before the start, more than a year: each its own message", () => {
    fc.assert(
      fc.property(validItemArb, fc.integer({ min: 1, max: 365 }), (item, days) => {
        const shift = (date: string, by: number) => formatISO(addDays(parseISO(date), by), { representation: "date" });
        const only = (change: Partial<AgendaItem>) =>
          agendaItemIssues({ ...item, ...change }, CREATE).map((issue) => issue.message);
        expect(only({ vigIni: shift(TODAY, -days), vigFim: TODAY })).toEqual([T.vigIniPast]);
        expect(only({ vigFim: shift(item.vigIni, -days) })).toEqual([T.vigFimBeforeVigIni]);
        expect(only({ vigFim: shift(item.vigIni, 366 + days) })).toEqual([T.rangeTooLong]);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  test("an item survives the trip through its save and update JSON", () => {
    const refs = { Id_EmpresasFilial: 1, Id_Environments: 2, Id_Users: 3 };
    fc.assert(
      fc.property(validItemArb, (item) => {
        const json = JSON.parse(JSON.stringify(toSaveAgendaInput(item, refs)));
        expect(agendaItemFromSave(SaveAgendaItem.parse(json))).toEqual(item);
        const update = toUpdateAgendaInput(item, { ...refs, ID: 9, ATIVO: true });
        expect(agendaItemFromUpdate(UpdateAgenda.parse(JSON.parse(JSON.stringify(update))))).toEqual(item);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
