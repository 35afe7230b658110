/**
 * The demo simulator (issue 12; docs/scheduling.md 'The demo simulator'): agendas for the demo company's environments
 * and ~90 days of executions before today, so every screen and report has real data on a fresh `npm start`.
 *
 * Everything goes through the services the product itself uses: the agendas through `createAgendas` (as if saved on
 * the day the simulation starts), the executions through the execution service's `startSlot`, `recordProcedure`,
 * `finishSlot` and `reportIncomplete` with a simulated clock, so the data obeys the same rules as the phone's calls.
 * Deterministic: every choice comes from a PRNG seeded per booking (its day, slot and room), and the calendar is
 * relative to today in America/Fortaleza; nothing at or after `now` is executed (today's slots so far are, the one
 * under way stays 'Andamento').
 *
 * The field app's proof flags (docs/field-app.md 'Proof flags') have examples: most slots are started with the room's
 * QR value, some without (iniciada_via_qr false), and a few were done without signal, all their records sent together
 * when it came back (a receipt later than the phone's `feitoEm`: envio_atraso_s). Those choices come from a PRNG of
 * their own, so the slots' outcomes are the ones the simulator always made.
 */

import { addDays, differenceInCalendarDays } from "date-fns";
import type { Kysely } from "kysely";

import type { Scope } from "../auth/scope.ts";
import { businessToday, dayOf, isoDay } from "../domain/schedule-expansion.ts";
import { SaveAgendaItem, type SaveAgendaInput, type SaveAgendaPayload } from "../domain/schedule-payloads.ts";
import { finishSlot, recordProcedure, reportIncomplete, startSlot, type Executor } from "../services/execution.ts";
import { reencodedUpload } from "../services/images.ts";
import { createAgendas } from "../services/scheduling.ts";
import type { Storage } from "../services/storage.ts";

import { demoAvatar, demoPhoto } from "./demo-images.ts";
import type { DB } from "./schema.ts";

export const DEMO_COMPANY = "Hospital Boa Saúde";
export const SIMULATED_DAYS = 90;
/** How far after today the demo agendas run (the calendar's next months have bookings). */
const FUTURE_DAYS = 60;

type Slot = [ini: string, fim: string];
type PlannedAgenda = {
  branch: string;
  environment: string;
  asg: string;
  /** Weekday names as DIAS_SEMANA spells them; absent is '12X'. */
  weekdays?: string;
  main: Slot;
  revisions: Slot[];
  revisionPhotos?: boolean;
};

const WEEKDAYS = "Segunda - Terça - Quarta - Quinta - Sexta";

/** One collaborator's slots never overlap: they are done one after another. */
export const DEMO_AGENDAS: PlannedAgenda[] = [
  {
    branch: "Filial Aldeota",
    environment: "Recepção principal",
    asg: "Sebastião ASG",
    weekdays: WEEKDAYS,
    main: ["07:00", "07:40"],
    revisions: [["15:00", "15:20"]],
  },
  {
    branch: "Filial Aldeota",
    environment: "Banheiro masculino térreo",
    asg: "Sebastião ASG",
    main: ["08:00", "08:30"],
    revisions: [["13:00", "13:15"]],
    revisionPhotos: true,
  },
  {
    branch: "Filial Aldeota",
    environment: "Enfermaria 101",
    asg: "Ana Souza",
    weekdays: WEEKDAYS,
    main: ["07:00", "07:45"],
    revisions: [],
  },
  {
    branch: "Filial Aldeota",
    environment: "UTI adulto",
    asg: "Ana Souza",
    main: ["09:00", "09:50"],
    revisions: [["14:00", "14:30"]],
    revisionPhotos: true,
  },
  {
    branch: "Filial Aldeota",
    environment: "Corredor A",
    asg: "Cícero Alves",
    weekdays: WEEKDAYS,
    main: ["06:30", "07:00"],
    revisions: [["12:00", "12:15"]],
  },
  {
    branch: "Filial Aldeota",
    environment: "Diretoria",
    asg: "Cícero Alves",
    weekdays: "Terça - Quinta",
    main: ["16:00", "16:40"],
    revisions: [],
  },
  {
    branch: "Filial Messejana",
    environment: "Recepção principal",
    asg: "Bruno Lima",
    weekdays: "Segunda - Quarta - Sexta",
    main: ["07:00", "07:40"],
    revisions: [["12:30", "12:50"]],
  },
  {
    branch: "Filial Messejana",
    environment: "Banheiro feminino térreo",
    asg: "Bruno Lima",
    main: ["08:00", "08:30"],
    revisions: [],
  },
  {
    branch: "Filial Messejana",
    environment: "UTI adulto",
    asg: "Débora Nunes",
    weekdays: `${WEEKDAYS} - Sábado`,
    main: ["07:00", "08:00"],
    revisions: [["13:00", "13:30"]],
  },
];

/**
 * Sebastião's round for the field app (docs/field-app.md 'Try it'): a washroom of his every day from the day the demo
 * starts, at all hours (a hospital never closes), so asg@demo.com.br finds slots of today in the field app whatever
 * the hour a newcomer starts the demo. Today the slots before now are done as any other, the last one begun is left
 * under way, and the next ones wait; only after 23:30 is the next one tomorrow's. Between his other slots (07:00,
 * 08:00, 13:00 and 15:00): one collaborator's slots never overlap.
 */
export const FIELD_ROUND: PlannedAgenda = {
  branch: "Filial Aldeota",
  environment: "Banheiro feminino térreo",
  asg: "Sebastião ASG",
  weekdays: "Domingo - Segunda - Terça - Quarta - Quinta - Sexta - Sábado",
  main: ["00:00", "00:20"],
  revisions: [
    ["02:00", "02:20"],
    ["04:00", "04:20"],
    ["06:00", "06:20"],
    ["09:00", "09:20"],
    ["11:00", "11:20"],
    ["14:00", "14:20"],
    ["16:00", "16:20"],
    ["18:00", "18:20"],
    ["20:00", "20:20"],
    ["22:00", "22:20"],
    ["23:30", "23:50"],
  ],
};

/**
 * Extra cleanings: the execution service has no call for a cleaning nobody scheduled, so a coordinator schedules a
 * one-day agenda ('12X' valid for one day: one booking) the day it is needed, and the collaborator does it.
 */
const EXTRA_CLEANINGS: { daysAgo: number; agenda: number; slot: Slot }[] = [
  { daysAgo: 83, agenda: 0, slot: ["16:30", "17:00"] },
  { daysAgo: 61, agenda: 3, slot: ["16:00", "16:40"] },
  { daysAgo: 47, agenda: 8, slot: ["16:00", "16:40"] },
  { daysAgo: 30, agenda: 4, slot: ["15:00", "15:30"] },
  { daysAgo: 12, agenda: 1, slot: ["17:00", "17:20"] },
  { daysAgo: 4, agenda: 6, slot: ["16:00", "16:30"] },
];

export const DEMO_REASONS = [
  "Ambiente ocupado por procedimento médico.",
  "Falta de material de limpeza (desinfetante).",
  "Sala trancada, chave não localizada na portaria.",
  "Colaborador remanejado para uma emergência em outro setor.",
  "Paciente em isolamento: aguardando liberação da enfermagem.",
  "Falta de água no andar.",
];

const OBSERVATIONS = [
  "Lixeira com saco rasgado, trocada.",
  "Piso molhado sinalizado com placa.",
  "Dispensador de papel toalha com defeito, avisado à manutenção.",
  "Mancha no rejunte: pedir limpeza pesada.",
  "Sabonete líquido no fim, reposto.",
  "Vidro com marcas de mãos na parte externa.",
  "Ambiente muito movimentado, limpeza feita em partes.",
];

// -----------------------------------------------------------------------------------------------------------------
// Determinism

/** mulberry32: a small, fast PRNG with a 32-bit state. */
export function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of a text: the seed of one booking's choices. */
function hash(text: string) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

// -----------------------------------------------------------------------------------------------------------------
// The simulation

export type SimulationOptions = {
  /** The real clock: the simulation ends here (today in Fortaleza is its last day). */
  now: Date;
  storage: Storage;
  /** Days before today that are simulated (90). */
  days?: number;
};

export type SimulationResult = {
  agendas: number;
  bookings: number;
  completed: number;
  late: number;
  incomplete: number;
  inProgress: number;
  missed: number;
  history: number;
  photos: number;
  /** Slots started without the room's QR value (the rest of the started ones had it). */
  withoutQr: number;
  /** Slots whose records were all sent together, 5 minutes or more after they were done. */
  lateSends: number;
  /** Rows written: agendas, bookings and history (periodicities and revisions left out). */
  rows: number;
  ms: number;
};

/** Of the started slots, how many carry the room's QR value, and how many were sent late (docs/field-app.md). */
const FIELD_SHARES = { viaQr: 0.85, lateSend: 0.05 } as const;

/** An instant of a business day (America/Fortaleza is UTC-3 all year, no daylight saving since 2000). */
export function businessInstant(day: string, minutes: number) {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d, 3, 0) + minutes * 60_000);
}

const minutesOf = (time: string) => {
  const [h, m] = time.split(":").map(Number);
  return h * 60 + m;
};

/**
 * Agendas for the demo company's ASGs, then `days` days of executions up to `now`, all through the services. The
 * company must hold the demo data (api/db/seed.ts); run inside one transaction so a failure leaves nothing half done.
 */
export async function simulateDemoHistory(db: Kysely<DB>, options: SimulationOptions): Promise<SimulationResult> {
  const began = performance.now();
  return db.transaction().execute(async (trx) => {
    const result = await simulate(trx, options);
    return { ...result, ms: performance.now() - began };
  });
}

async function simulate(db: Kysely<DB>, options: SimulationOptions): Promise<Omit<SimulationResult, "ms">> {
  const { now, storage } = options;
  const today = businessToday(now);
  const start = isoDay(addDays(dayOf(today), -(options.days ?? SIMULATED_DAYS)));
  const end = isoDay(addDays(dayOf(today), FUTURE_DAYS));

  const company = await db
    .selectFrom("companies")
    .select("id")
    .where("nome", "=", DEMO_COMPANY)
    .executeTakeFirstOrThrow();
  const scope: Scope = { level: "company", companyId: company.id };
  const branches = new Map(
    (await db.selectFrom("branches").select(["id", "nome"]).where("company_id", "=", company.id).execute()).map(
      (row) => [row.nome, row.id],
    ),
  );
  const environments = await db
    .selectFrom("environments")
    .select(["id", "name", "branch_id", "qr_codigo"])
    .where("company_id", "=", company.id)
    .where("deleted_at", "is", null)
    .execute();
  const users = await db
    .selectFrom("users")
    .select(["id", "nome", "branch_id"])
    .where("company_id", "=", company.id)
    .where("role_id", "=", 5)
    .orderBy("id")
    .execute();
  // Avatars for the collaborators, as the room page and the board show them; every third keeps none (initials).
  for (const [index, user] of users.entries()) {
    if (index % 3 === 2) continue;
    // Through the uploads' path, as the profile page's avatars.
    const avatar = await storage.save("avatars", "jpg", await reencodedUpload(await demoAvatar(index)));
    await db.updateTable("users").set({ avatar }).where("id", "=", user.id).execute();
  }
  const payloadOf = (plan: PlannedAgenda, vigIni: string, vigFim: string, nome?: string): SaveAgendaPayload => {
    const branchId = branches.get(plan.branch);
    const environment = environments.find((row) => row.name === plan.environment && row.branch_id === branchId);
    const user = users.find((row) => row.nome === plan.asg && row.branch_id === branchId);
    if (!branchId || !environment || !user)
      throw new Error(`demo simulator: ${plan.branch} / ${plan.environment} / ${plan.asg} is not in the demo data`);
    const wire: SaveAgendaInput = {
      Id_EmpresasFilial: branchId,
      Id_Environments: environment.id,
      Id_Users: user.id,
      Periodicidade: {
        nome,
        type: plan.weekdays ? "sem" : "12X",
        DIAS_SEMANA: plan.weekdays,
        hora_base_inicial: plan.main[0],
        hora_base_final: plan.main[1],
        Revisoes: plan.revisions.map(([ini, fim]) => ({ HORA_INICIAL: ini, HORA_FINAL: fim })),
      },
      revisionPhotos: plan.revisionPhotos ?? false,
      vigIni,
      vigFim,
    };
    // Parsed as the route parses a POST /agendas/v2/saveAgenda body.
    return SaveAgendaItem.parse(wire);
  };

  // The agendas, saved as on the first simulated day (the rules refuse a validity starting before 'today').
  const created = await createAgendas(
    db,
    scope,
    DEMO_AGENDAS.map((plan) => payloadOf(plan, start, end)),
    { today: start },
  );
  const agendaIds = created.map((row) => row.id);
  for (const extra of EXTRA_CLEANINGS) {
    const day = isoDay(addDays(dayOf(today), -extra.daysAgo));
    if (day < start) continue;
    const plan = { ...DEMO_AGENDAS[extra.agenda], weekdays: undefined, main: extra.slot, revisions: [] };
    const [row] = await createAgendas(db, scope, [payloadOf(plan, day, day, `Limpeza extra - ${plan.environment}`)], {
      today: day,
    });
    agendaIds.push(row.id);
    created.push(row);
  }

  // The field app's round starts today (its days before are not simulated: the reports' figures stay as they were).
  const [round] = await createAgendas(db, scope, [payloadOf(FIELD_ROUND, today, end)], { today });
  agendaIds.push(round.id);
  created.push(round);

  const bookings = await db
    .selectFrom("bookings as b")
    .innerJoin("agendas as a", "a.id", "b.agenda_id")
    .select([
      "b.id",
      "b.agenda_id",
      "b.user_id",
      "b.environment_id",
      "b.data_agend",
      "b.slot",
      "b.hora_ini",
      "b.hora_fim",
      "a.revision_photos",
    ])
    .where("b.agenda_id", "in", agendaIds)
    .where("b.data_agend", "<=", today)
    .orderBy("b.data_agend")
    .orderBy("b.hora_ini")
    .orderBy("b.id")
    .execute();
  const procedures = await db
    .selectFrom("environment_procedures")
    .select(["environment_id", "procedure_id", "mandatory"])
    .where(
      "environment_id",
      "in",
      bookings.map((row) => row.environment_id),
    )
    .orderBy("environment_id")
    .orderBy("mandatory", "desc")
    .orderBy("procedure_id")
    .execute();

  const counts = {
    completed: 0,
    late: 0,
    incomplete: 0,
    inProgress: 0,
    missed: 0,
    history: 0,
    photos: 0,
    withoutQr: 0,
    lateSends: 0,
  };
  const qrOf = new Map(environments.map((row) => [row.id, row.qr_codigo]));
  const past = (instant: Date) => instant.getTime() <= now.getTime();
  // The round's last slot begun by now stays under way, whatever the hour (FIELD_ROUND).
  const underWay = bookings
    .filter((row) => row.agenda_id === round.id && past(businessInstant(row.data_agend, minutesOf(row.hora_ini))))
    .at(-1);
  for (const booking of bookings) {
    const random = prng(hash(`${booking.data_agend}|${booking.environment_id}|${booking.slot}|${booking.hora_ini}`));
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
    const executor: Executor = { userId: booking.user_id, companyId: company.id };
    const from = minutesOf(booking.hora_ini);
    const length = minutesOf(booking.hora_fim) - from;
    // The field app's choices, from their own PRNG (the outcomes below draw from `random` as they always did).
    const field = prng(
      hash(`campo|${booking.data_agend}|${booking.environment_id}|${booking.slot}|${booking.hora_ini}`),
    );
    const viaQr = field() < FIELD_SHARES.viaQr;
    const qr = viaQr ? (qrOf.get(booking.environment_id) ?? null) : null;
    if (booking.id === underWay?.id) {
      await startSlot(db, executor, booking.id, businessInstant(booking.data_agend, from), { qr });
      if (!viaQr) counts.withoutQr++;
      const [first] = procedures.filter((row) => row.environment_id === booking.environment_id);
      const at = businessInstant(booking.data_agend, from + 5);
      if (first && past(at)) {
        await recordProcedure(
          { db, storage },
          executor,
          booking.id,
          { procedureId: first.procedure_id, observacao: null, photo: null },
          at,
        );
        counts.history++;
      }
      counts.inProgress++;
      continue;
    }
    const fate = random();
    // Old days are fuller: the last week has the most recent few missed (as a real team catches up).
    const age = differenceInCalendarDays(dayOf(today), dayOf(booking.data_agend));
    if (fate < 0.04 && age > 0) {
      counts.missed++;
      continue;
    }
    if (fate < 0.1) {
      // Reported incomplete without being started: the room could not be cleaned at all.
      const at = businessInstant(booking.data_agend, from + length + 5 + Math.floor(random() * 40));
      if (!past(at)) continue;
      await reportIncomplete(db, executor, booking.id, pick(DEMO_REASONS), at);
      counts.incomplete++;
      continue;
    }
    const late = random() < 0.15;
    // Not before the slot's day (a 00:00 slot started 5 minutes early would be a start on the day before: refused).
    const delay = Math.max(-from, late ? 20 + Math.floor(random() * 70) : Math.floor(random() * 17) - 5);
    const startedAt = businessInstant(booking.data_agend, from + delay);
    if (!past(startedAt)) continue;
    // Done without signal: every record reaches the server when the signal is back, after the slot's longest end.
    const signalBack = businessInstant(
      booking.data_agend,
      from + delay + Math.max(5, Math.ceil(length * 1.25)) + 10 + Math.floor(field() * 120),
    );
    const sentAt = field() < FIELD_SHARES.lateSend && past(signalBack) ? signalBack : null;
    /** The receipt and the phone's instant of a record done `at`. */
    const sent = (at: Date) => [sentAt ?? at, { feitoEm: sentAt ? at : null }] as const;
    if (sentAt) counts.lateSends++;
    await startSlot(db, executor, booking.id, sent(startedAt)[0], { ...sent(startedAt)[1], qr });
    if (!viaQr) counts.withoutQr++;
    const stopsEarly = fate < 0.16;
    const own = procedures.filter((row) => row.environment_id === booking.environment_id);
    // The main cleaning does most mandatory procedures and a few optional ones (at most 3 recorded); a revision one.
    const chosen = own.filter((row) => random() < (row.mandatory ? 0.9 : 0.25)).slice(0, booking.slot > 0 ? 1 : 3);
    const done = stopsEarly ? chosen.slice(0, 1) : chosen;
    const span = Math.max(5, Math.round(length * (0.75 + random() * 0.5)));
    let closed = true;
    for (const [index, procedure] of done.entries()) {
      const at = businessInstant(
        booking.data_agend,
        from + delay + Math.round(((index + 1) * span) / (done.length + 1)),
      );
      if (!past(at)) {
        closed = false;
        break;
      }
      const revision = booking.slot > 0;
      const withPhoto = revision && booking.revision_photos ? index === 0 : random() < 0.35;
      const photo = withPhoto
        ? { bytes: await demoPhoto([80 + Math.floor(random() * 160), 80 + Math.floor(random() * 160), 200]) }
        : null;
      const observacao = random() < 0.12 ? pick(OBSERVATIONS) : null;
      await recordProcedure(
        { db, storage },
        executor,
        booking.id,
        { procedureId: procedure.procedure_id, observacao, photo },
        ...sent(at),
      );
      counts.history++;
      if (photo) counts.photos++;
    }
    const endedAt = businessInstant(booking.data_agend, from + delay + span);
    if (!closed || !past(endedAt)) {
      counts.inProgress++;
      continue;
    }
    if (stopsEarly) {
      await reportIncomplete(db, executor, booking.id, pick(DEMO_REASONS), ...sent(endedAt));
      counts.incomplete++;
    } else {
      await finishSlot(db, executor, booking.id, ...sent(endedAt));
      counts.completed++;
      if (late) counts.late++;
    }
  }
  const bookingRows = created.reduce((sum, row) => sum + row.bookings, 0);
  return {
    agendas: created.length,
    bookings: bookingRows,
    ...counts,
    rows: created.length + bookingRows + counts.history,
  };
}
