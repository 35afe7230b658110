/**
 * The bookings roll-up (booking_days, migration 021; docs/operations.md 'The bookings roll-up') is never wrong:
 * random sequences of the writes that change bookings (agendas saved, edited, switched off and removed through the
 * API; slots started, recorded, finished and reported incomplete through the execution API; bookings cancelled and
 * reassigned; bulk inserts, deletes, status fixes, the slots' times (migration 023), history rows written, moved and
 * removed in plain SQL;
 * the rooms' lists and the catalogue, which decide a slot's tasks: migration 022), and after each step
 * `rollupDifferences` finds nothing. Then the check itself: a roll-up row corrupted, removed or added by hand is
 * reported with exactly its key, and `rebuildRollup` mends one company and leaves the others alone.
 */
import { addDays } from "date-fns";
import fc from "fast-check";
import { sql } from "kysely";
import { beforeAll, describe, expect, test } from "vitest";

import { businessToday, dayOf, isoDay } from "../../api/domain/schedule-expansion.ts";
import {
  rebuildRollup,
  ROLLUP_FIGURES,
  rollupDifferences,
  rollupKeyOf,
  type RollupFigures,
} from "../../api/services/rollups.ts";
import { saveDayAgenda } from "../support/agendas.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds, userByEmail } from "../support/demo.ts";
import { otherTenantBooking } from "../support/execution.ts";

const t = useTestApi();

const TODAY = businessToday();
const dayFrom = (offset: number) => isoDay(addDays(dayOf(TODAY), offset));
const STATUSES = [null, "Andamento", "Completo", "Incompleto"] as const;
/** The Aldeota collaborators who can sign in (the ASGs), and one without a session (her slots only by SQL). */
const EXECUTORS = ["asg@demo.com.br", "ana@demo.com.br"] as const;

const tokens: Record<string, string> = {};
let ids: Awaited<ReturnType<typeof demoIds>>;
/** Aldeota's ASGs (asg, ana, cícero) and rooms with procedures. */
let users: number[] = [];
let rooms: number[] = [];
/** Aldeota's procedures. */
let procedures: number[] = [];
const tokenOf = new Map<number, string>();

/** The row at `index` (modulo) of a list in id order, or undefined when the list is empty. */
const pick = <T>(rows: readonly T[], index: number): T | undefined =>
  rows.length ? rows[index % rows.length] : undefined;

/** The demo company's bookings: the other tenant's one is left for the checks below. */
const bookings = () =>
  t.db
    .selectFrom("bookings")
    .select(["id", "user_id", "environment_id", "agenda_id"])
    .where("company_id", "=", ids.hospital)
    .orderBy("id")
    .execute();
const agendas = () =>
  t.db
    .selectFrom("agendas")
    .select(["id", "branch_id", "environment_id", "user_id", "periodicity_id", "vig_ini", "vig_fim"])
    .where("branch_id", "=", ids.aldeota)
    .where("deleted_at", "is", null)
    .orderBy("id")
    .execute();
/** The ids of `count` bookings in a row from the one at `from` (modulo), for the statements that write several. */
const consecutive = async (from: number, count: number) => {
  const rows = await bookings();
  return rows
    .slice(from % Math.max(rows.length, 1))
    .slice(0, count)
    .map((row) => row.id);
};

/** The demo company's bookings with history, the ones whose history steps change something. */
const recorded = () =>
  t.db
    .selectFrom("bookings")
    .select(["id", "user_id", "environment_id", "agenda_id"])
    .where("company_id", "=", ids.hospital)
    .where("executions", ">", 0)
    .orderBy("id")
    .execute();

/** A few slots of the sequences' rooms, whose lists the sequences edit: executions and list edits meet often. */
const roomSlots = () =>
  t.db
    .selectFrom("bookings")
    .select(["id", "user_id", "environment_id", "agenda_id"])
    .where("company_id", "=", ids.hospital)
    .where("environment_id", "in", rooms)
    .where("active", "=", true)
    .orderBy("id")
    .limit(6)
    .execute();

/**
 * The slots the execution steps aim at: the first few open or started ones of the collaborators who can sign in, up
 * to today, so that a start, its records and its finish often meet the same slot within a sequence.
 */
const slots = () =>
  t.db
    .selectFrom("bookings")
    .select(["id", "user_id", "environment_id", "agenda_id"])
    .where("company_id", "=", ids.hospital)
    .where("user_id", "in", [...tokenOf.keys()])
    .where("data_agend", "<=", TODAY)
    .where((eb) => eb.or([eb("status", "is", null), eb("status", "=", "Andamento")]))
    .orderBy("id")
    .limit(4)
    .execute();
const proceduresOf = async (room: number) =>
  (
    await t.db
      .selectFrom("environment_procedures")
      .select("procedure_id")
      .where("environment_id", "=", room)
      .orderBy("procedure_id")
      .execute()
  ).map((row) => row.procedure_id);

/** How many calls of each kind (method and path, ids left out) were answered 2xx: what the sequences really wrote. */
const written = new Map<string, number>();

/** A call that may be refused (a slot already closed, a booking gone): anything but a server error. */
async function call(method: string, path: string, token: string, options: { json?: unknown; form?: FormData } = {}) {
  const answer = await t.call(method, path, { token, ...options });
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(500);
  const kind = `${method} ${path.replace(/\d+/g, "{id}")}`;
  if (answer.status < 300) written.set(kind, (written.get(kind) ?? 0) + 1);
}

const nat = fc.nat({ max: 1_000 });
const step = fc.oneof(
  // Through the API.
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("saveAgenda" as const),
      room: nat,
      user: nat,
      slots: fc.integer({ min: 1, max: 3 }),
      day: fc.integer({ min: 0, max: 2 }),
    }),
  },
  fc.record({
    kind: fc.constant("editAgenda" as const),
    agenda: nat,
    user: nat,
    slots: fc.integer({ min: 1, max: 3 }),
  }),
  fc.record({ kind: fc.constant("switchAgenda" as const), agenda: nat, ativo: fc.boolean() }),
  {
    weight: 10,
    arbitrary: fc.record({
      kind: fc.constantFrom(
        "start" as const,
        "record" as const,
        "finish" as const,
        "remaining" as const,
        "incomplete" as const,
      ),
      booking: fc.nat({ max: 3 }),
      procedure: nat,
      other: fc.integer({ min: 0, max: 5 }).map((draw) => draw === 0),
    }),
  },
  fc.record({ kind: fc.constant("cancel" as const), booking: nat }),
  // Plain SQL, as the bench, the import, the simulator or a hand fix write.
  fc.record({ kind: fc.constant("removeAgenda" as const), agenda: nat, hard: fc.boolean() }),
  fc.record({ kind: fc.constant("reassign" as const), booking: nat, user: nat, room: nat }),
  fc.record({
    kind: fc.constant("bulkInsert" as const),
    agenda: nat,
    days: fc.integer({ min: 1, max: 6 }),
    statuses: fc.array(fc.constantFrom(...STATUSES), { minLength: 1, maxLength: 6 }),
  }),
  fc.record({ kind: fc.constant("deleteBookings" as const), booking: nat, count: fc.integer({ min: 1, max: 4 }) }),
  fc.record({
    kind: fc.constant("statusFix" as const),
    booking: nat,
    count: fc.integer({ min: 1, max: 3 }),
    status: fc.constantFrom(...STATUSES),
    active: fc.boolean(),
  }),
  // The times the audit dashboard sums (migration 023): started, finished (before the start, over a day), the slot's
  // planned hours (over midnight), several rows in one statement.
  fc.record({
    kind: fc.constant("timesFix" as const),
    booking: nat,
    count: fc.integer({ min: 1, max: 3 }),
    startedMinutesAgo: fc.option(fc.integer({ min: 0, max: 3_000 })),
    finishedAfterMinutes: fc.option(fc.integer({ min: -30, max: 2_000 })),
    hours: fc.constantFrom(["08:00", "08:30"], ["22:00", "01:00"], ["10:00", "10:00"]),
  }),
  fc.record({ kind: fc.constant("historyAdd" as const), booking: nat, photo: fc.boolean() }),
  fc.record({ kind: fc.constant("historyRemove" as const), booking: nat, moveTo: fc.option(nat) }),
  fc.record({ kind: fc.constant("historyPhoto" as const), booking: nat }),
  fc.record({ kind: fc.constant("photosFix" as const), booking: nat, by: fc.integer({ min: -1, max: 2 }) }),
  // What decides a slot's tasks (migration 022): one execution of any procedure, a row's procedure changed, the
  // room's list edited, a procedure removed from the catalogue or brought back.
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("historyOne" as const),
      booking: nat,
      procedure: nat,
      ofRoom: fc.integer({ min: 0, max: 3 }).map((draw) => draw > 0),
    }),
  },
  fc.record({ kind: fc.constant("historyProcedure" as const), booking: nat, procedure: nat }),
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("roomList" as const), room: nat, procedure: nat, remove: fc.boolean() }),
  },
  fc.record({ kind: fc.constant("catalogueRemove" as const), procedure: nat }),
);
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

/**
 * Today's slots of an agenda: the first one started, all its tasks recorded and finished (every task done, a
 * measured time); the next one started, one task recorded and closed as incomplete (some tasks done); an agenda
 * edited through the API.
 */
const REACHES_EVERY_FIGURE: Step[] = [
  { kind: "saveAgenda", room: 0, user: 0, slots: 3, day: 0 },
  { kind: "start", booking: 0, procedure: 0, other: false },
  { kind: "remaining", booking: 0, procedure: 0, other: false },
  { kind: "finish", booking: 0, procedure: 0, other: false },
  { kind: "start", booking: 0, procedure: 0, other: false },
  { kind: "record", booking: 0, procedure: 0, other: false },
  { kind: "incomplete", booking: 0, procedure: 0, other: false },
  { kind: "editAgenda", agenda: 0, user: 1, slots: 2 },
];

async function run(action: Step) {
  switch (action.kind) {
    case "saveAgenda": {
      await saveDayAgenda(t, tokens.admin, {
        branch: ids.aldeota,
        environment: pick(rooms, action.room)!,
        user: pick(users, action.user)!,
        slots: [
          ["07:00", "07:40"],
          ["09:00", "09:30"],
          ["11:00", "11:30"],
        ].slice(0, action.slots) as [string, string][],
        day: dayFrom(action.day),
      });
      return;
    }
    case "editAgenda":
    case "switchAgenda": {
      const agenda = pick(await agendas(), action.agenda);
      if (!agenda) return;
      const detail = (await t.get(`/api/agendas/${agenda.id}`, { token: tokens.admin })).body;
      const edit =
        action.kind === "editAgenda"
          ? {
              Id_Users: pick(users, action.user),
              Periodicidade: {
                ...detail.Periodicidade,
                Revisoes: [
                  { HORA_INICIAL: "14:00", HORA_FINAL: "14:30" },
                  { HORA_INICIAL: "16:00", HORA_FINAL: "16:30" },
                ].slice(0, action.slots - 1),
              },
            }
          : { ATIVO: action.ativo };
      // The edit form's body is the agenda as GET answers it, changed.
      await call("PUT", "/api/agendas/updateAgenda", tokens.admin, { json: { ...detail, ...edit } });
      return;
    }
    case "start":
    case "finish":
    case "remaining":
    case "record":
    case "incomplete": {
      const booking = pick(await slots(), action.booking);
      if (!booking) return;
      // Now and then the other collaborator's token: refused (404), and a write that does not happen must not move
      // the roll-up either.
      const token = action.other
        ? [...tokenOf.values()].find((other) => other !== tokenOf.get(booking.user_id))!
        : tokenOf.get(booking.user_id)!;
      const path = `/api/execution/bookings/${booking.id}`;
      if (action.kind === "start") await call("POST", `${path}/start`, token);
      if (action.kind === "finish") await call("POST", `${path}/finish`, token);
      if (action.kind === "remaining") await call("POST", `${path}/procedures/remaining`, token, { json: {} });
      if (action.kind === "incomplete")
        await call("POST", `${path}/incomplete`, token, { json: { justificativa: "Sala ocupada" } });
      if (action.kind === "record") {
        const form = new FormData();
        form.set("procedureId", String(pick(await proceduresOf(booking.environment_id), action.procedure) ?? 0));
        await call("POST", `${path}/procedures`, token, { form });
      }
      return;
    }
    case "cancel": {
      const booking = pick(await bookings(), action.booking);
      if (booking) await call("DELETE", `/api/agendas/Agendamentos/${booking.id}`, tokens.admin);
      return;
    }
    case "removeAgenda": {
      const agenda = pick(await agendas(), action.agenda);
      if (!agenda) return;
      // A hard delete cascades to its bookings and their history; a soft one changes no booking.
      if (action.hard) await t.db.deleteFrom("agendas").where("id", "=", agenda.id).execute();
      else await t.db.updateTable("agendas").set({ deleted_at: new Date() }).where("id", "=", agenda.id).execute();
      return;
    }
    case "reassign": {
      const booking = pick(await bookings(), action.booking);
      if (!booking) return;
      await t.db
        .updateTable("bookings")
        .set({ user_id: pick(users, action.user)!, environment_id: pick(rooms, action.room)! })
        .where("id", "=", booking.id)
        .execute();
      return;
    }
    case "bulkInsert": {
      const agenda = pick(await agendas(), action.agenda);
      if (!agenda) return;
      // Past days (as the old system's import writes them), several slots a day, in one statement.
      const statuses = action.statuses;
      await sql`
        insert into bookings (agenda_id, company_id, branch_id, user_id, environment_id, data_agend, slot, hora_ini,
          hora_fim, status, active)
        select a.id, a.company_id, a.branch_id, a.user_id, a.environment_id, ${TODAY}::date - d, s, '08:00', '08:30',
          (${statuses}::text[])[1 + (d + s) % ${statuses.length}], (d + s) % 5 <> 0
        from agendas a cross join generate_series(1, ${action.days}) d cross join generate_series(0, 2) s
        where a.id = ${agenda.id}
        on conflict (agenda_id, data_agend, slot) do nothing`.execute(t.db);
      return;
    }
    case "deleteBookings": {
      const chosen = await consecutive(action.booking, action.count);
      if (chosen.length) await t.db.deleteFrom("bookings").where("id", "in", chosen).execute();
      return;
    }
    case "statusFix": {
      // Several rows in one statement, maybe deactivated too.
      const chosen = await consecutive(action.booking, action.count);
      if (chosen.length)
        await t.db
          .updateTable("bookings")
          .set({ status: action.status, active: action.active })
          .where("id", "in", chosen)
          .execute();
      return;
    }
    case "timesFix": {
      const chosen = await consecutive(action.booking, action.count);
      const started = action.startedMinutesAgo;
      const finished = action.finishedAfterMinutes;
      if (chosen.length)
        await sql`update bookings set
            start_date = case when ${started}::int is null then null else now() - make_interval(mins => ${started}::int) end,
            finished_at = case when ${started}::int is null or ${finished}::int is null then null
              else now() - make_interval(mins => ${started}::int) + make_interval(mins => ${finished}::int) end,
            hora_ini = ${action.hours[0]}::time, hora_fim = ${action.hours[1]}::time
          where id in (${sql.join(chosen)})`.execute(t.db);
      return;
    }
    case "historyAdd": {
      const booking = pick(await bookings(), action.booking);
      if (!booking) return;
      // Every procedure of the room at once, as recordRemaining and the bench do (014's counts follow).
      await sql`
        insert into history (booking_id, procedure_id, user_id, image)
        select ${booking.id}, ep.procedure_id, ${booking.user_id}, case when ${action.photo} then 'x.jpg' end
        from environment_procedures ep where ep.environment_id = ${booking.environment_id}`.execute(t.db);
      return;
    }
    case "photosFix": {
      // A hand fix of one count (the roll-up follows bookings, whatever history says).
      const booking = pick(await bookings(), action.booking);
      if (booking)
        await sql`update bookings set photos = greatest(photos + ${action.by}, 0) where id = ${booking.id}`.execute(
          t.db,
        );
      return;
    }
    case "historyPhoto": {
      const booking = pick(await recorded(), action.booking);
      if (!booking) return;
      // A photo named or taken away: 014 moves bookings.photos alone.
      await sql`update history set image = case when image is null then 'y.jpg' end
        where booking_id = ${booking.id}`.execute(t.db);
      return;
    }
    case "historyOne": {
      const booking = pick(await roomSlots(), action.booking);
      if (!booking) return;
      // Mostly one of the room's own tasks, sometimes a procedure it does not ask for.
      const procedure = pick(action.ofRoom ? await proceduresOf(booking.environment_id) : procedures, action.procedure);
      if (procedure)
        await t.db
          .insertInto("history")
          .values({ booking_id: booking.id, procedure_id: procedure, user_id: booking.user_id, observacao: "ok" })
          .execute();
      return;
    }
    case "historyProcedure": {
      const booking = pick(
        (await recorded()).filter((row) => rooms.includes(row.environment_id)),
        action.booking,
      );
      const procedure = pick(procedures, action.procedure);
      if (booking && procedure)
        await t.db
          .updateTable("history")
          .set({ procedure_id: procedure })
          .where("id", "=", (eb) =>
            eb.selectFrom("history").select(eb.fn.min("id").as("id")).where("booking_id", "=", booking.id),
          )
          .execute();
      return;
    }
    case "roomList": {
      const room = pick(rooms, action.room)!;
      const list = await proceduresOf(room);
      if (action.remove) {
        const procedure = pick(list, action.procedure);
        if (procedure)
          await t.db
            .deleteFrom("environment_procedures")
            .where("environment_id", "=", room)
            .where("procedure_id", "=", procedure)
            .execute();
      } else {
        const procedure = pick(
          procedures.filter((id) => !list.includes(id)),
          action.procedure,
        );
        if (procedure)
          await t.db
            .insertInto("environment_procedures")
            .values({ environment_id: room, procedure_id: procedure, mandatory: false })
            .execute();
      }
      return;
    }
    case "catalogueRemove": {
      const procedure = pick(procedures, action.procedure)!;
      await sql`update procedures set deleted_at = case when deleted_at is null then now() end
        where id = ${procedure}`.execute(t.db);
      return;
    }
    case "historyRemove": {
      const booking = pick(await recorded(), action.booking);
      if (!booking) return;
      const target = action.moveTo === null ? undefined : pick(await bookings(), action.moveTo);
      // Moved to another booking (014's row trigger) or deleted (its statement trigger).
      if (target)
        await t.db.updateTable("history").set({ booking_id: target.id }).where("booking_id", "=", booking.id).execute();
      else await t.db.deleteFrom("history").where("booking_id", "=", booking.id).execute();
      return;
    }
  }
}

beforeAll(async () => {
  ids = await demoIds(t.db);
  tokens.admin = await t.signIn("admin@demo.com.br");
  for (const email of EXECUTORS) {
    const token = await t.signIn(email);
    tokenOf.set((await userByEmail(t.db, email)).id, token);
    tokens[email.split("@")[0]] = token;
  }
  users = [...tokenOf.keys(), (await userByEmail(t.db, "cicero@demo.com.br")).id];
  rooms = (
    await t.db
      .selectFrom("environments as e")
      .innerJoin("environment_procedures as ep", "ep.environment_id", "e.id")
      .select("e.id")
      .where("e.branch_id", "=", ids.aldeota)
      .where("e.deleted_at", "is", null)
      .groupBy("e.id")
      .orderBy("e.id")
      .limit(3)
      .execute()
  ).map((row) => row.id);
  expect(rooms.length).toBeGreaterThanOrEqual(2);
  // Every procedure of the branch: some are on those rooms' lists, some not (their executions match no task).
  procedures = (
    await t.db.selectFrom("procedures").select("id").where("branch_id", "=", ids.aldeota).orderBy("id").execute()
  ).map((row) => row.id);
  // Today's slots for both collaborators to start with; the sequences save more.
  for (const [index, user] of [...tokenOf.keys()].entries())
    await saveDayAgenda(t, tokens.admin, {
      branch: ids.aldeota,
      environment: rooms[index],
      user,
      slots: [
        ["06:00", "06:40"],
        ["08:00", "08:30"],
      ],
    });
  // Another tenant's booking: a company the sequences never touch, which the checks below must keep apart.
  await otherTenantBooking(t.db, ids, (await userByEmail(t.db, "outra@demo.com.br")).id);
});

describe("booking_days against the rows", () => {
  test("random sequences of every write to bookings leave no difference after any step", async () => {
    let steps = 0;
    /** The slots' task situations and measured times the roll-up held at some step: the sequences did reach them. */
    const tasksSeen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 8 }), async (actions) => {
        // A failed run leaves its wrong rows: mended first, so the shrunk sequence fast-check reports is one that
        // fails on its own.
        await rebuildRollup(t.db, ids.hospital);
        for (const action of actions) {
          await run(action);
          steps++;

          expect(await rollupDifferences(t.db), JSON.stringify(action)).toEqual([]);
          const reached = await t.db
            .selectFrom("booking_days")
            .select((eb) => [
              eb.fn.max("tarefas_completas").as("completas"),
              eb.fn.max("tarefas_incompletas").as("incompletas"),
              eb.fn.max("ms_previstos").as("tempos"),
            ])
            .executeTakeFirstOrThrow();
          if (Number(reached.completas) > 0) tasksSeen.add("completas");
          if (Number(reached.incompletas) > 0) tasksSeen.add("incompletas");
          if (Number(reached.tempos) > 0) tasksSeen.add("tempos");
        }
      }),
      // A first sequence that reaches every figure the check below asks for: the random ones may not (a landing run
      // drew 25 sequences whose slots never finished after a start).
      { numRuns: 25, examples: [[REACHES_EVERY_FIGURE]] },
    );
    const calls = (prefix: string) =>
      [...written].filter(([kind]) => kind.startsWith(prefix)).reduce((sum, [, count]) => sum + count, 0);
    expect(calls("POST /api/execution/")).toBeGreaterThan(0);
    expect(calls("PUT /api/agendas/updateAgenda")).toBeGreaterThan(0);
    // The sequences did reach the roll-up: rows of several days, statuses and executions.
    const totals = await t.db
      .selectFrom("booking_days")
      .select((eb) => [
        eb.fn.countAll<string>().as("rows"),
        eb.fn.count<string>("dia").distinct().as("days"),
        eb.fn.sum<string>("completos").as("completos"),
        eb.fn.sum<string>("execucoes").as("execucoes"),
      ])
      .executeTakeFirstOrThrow();
    expect(steps).toBeGreaterThan(20);
    expect(Number(totals.rows)).toBeGreaterThan(3);
    expect(Number(totals.days)).toBeGreaterThan(1);
    expect(Number(totals.completos) + Number(totals.execucoes)).toBeGreaterThan(0);
    expect([...tasksSeen].sort()).toEqual(["completas", "incompletas", "tempos"]);
  }, 120_000);

  test("a slot's tasks follow its room's list and the catalogue: each edit moves the slot and the roll-up", async () => {
    const [room, other] = rooms;
    const [slot] = await roomSlots();
    await t.db.deleteFrom("history").where("booking_id", "=", slot.id).execute();
    if (slot.environment_id !== room)
      await t.db.updateTable("bookings").set({ environment_id: room }).where("id", "=", slot.id).execute();
    const [first, second] = procedures.filter((id) => id !== procedures[0]);
    await t.db.deleteFrom("environment_procedures").where("environment_id", "=", room).execute();
    await t.db
      .insertInto("environment_procedures")
      .values([first, second].map((procedure_id) => ({ environment_id: room, procedure_id, mandatory: true })))
      .execute();
    await sql`update procedures set deleted_at = null where id in (${first}, ${second})`.execute(t.db);
    const situation = async () => {
      expect(await rollupDifferences(t.db)).toEqual([]);
      const row = await t.db
        .selectFrom("bookings")
        .select("tarefas_situacao")
        .where("id", "=", slot.id)
        .executeTakeFirstOrThrow();
      return row.tarefas_situacao;
    };
    expect(await situation()).toBeNull();
    await t.db
      .insertInto("history")
      .values({ booking_id: slot.id, procedure_id: first, user_id: slot.user_id })
      .execute();
    expect(await situation()).toBe("incompleta");
    // The second task taken off the room: the one done is all it asks.
    await t.db
      .deleteFrom("environment_procedures")
      .where("environment_id", "=", room)
      .where("procedure_id", "=", second)
      .execute();
    expect(await situation()).toBe("completa");
    await t.db
      .insertInto("environment_procedures")
      .values({ environment_id: room, procedure_id: second, mandatory: false })
      .execute();
    expect(await situation()).toBe("incompleta");
    // Removed from the catalogue, the second is no task; brought back, it is again.
    await sql`update procedures set deleted_at = now() where id = ${second}`.execute(t.db);
    expect(await situation()).toBe("completa");
    await sql`update procedures set deleted_at = null where id = ${second}`.execute(t.db);
    expect(await situation()).toBe("incompleta");
    // The one done taken off the room: the slot has an execution but none of its tasks.
    await t.db
      .deleteFrom("environment_procedures")
      .where("environment_id", "=", room)
      .where("procedure_id", "=", first)
      .execute();
    expect(await situation()).toBe("nenhuma");
    // The slot moved to a room whose list holds what was done.
    await t.db
      .insertInto("environment_procedures")
      .values({ environment_id: other, procedure_id: first, mandatory: false })
      .onConflict((oc) => oc.doNothing())
      .execute();
    await t.db
      .deleteFrom("environment_procedures")
      .where("environment_id", "=", other)
      .where("procedure_id", "<>", first)
      .execute();
    await t.db.updateTable("bookings").set({ environment_id: other }).where("id", "=", slot.id).execute();
    expect(await situation()).toBe("completa");
  });

  test("the check can fail: a corrupted, a missing and an extra row are reported with exactly their keys", async () => {
    for (const day of [1, 2])
      await saveDayAgenda(t, tokens.admin, {
        branch: ids.aldeota,
        environment: rooms[0],
        user: users[0],
        slots: [
          ["18:00", "18:30"],
          ["19:00", "19:30"],
        ],
        day: dayFrom(day),
      });
    expect(await rollupDifferences(t.db)).toEqual([]);
    const [first, second] = await t.db
      .selectFrom("booking_days")
      .selectAll()
      .where("company_id", "=", ids.hospital)
      .orderBy("dia")
      .orderBy("agenda_id")
      .limit(2)
      .execute();
    const other = await t.db
      .selectFrom("booking_days")
      .selectAll()
      .where("company_id", "=", ids.other)
      .executeTakeFirstOrThrow();
    const keyOf = rollupKeyOf;
    // As the check answers them (JSON numbers); a bigint column is a string through node-postgres.
    const figuresOf = (row: typeof first) =>
      Object.fromEntries(ROLLUP_FIGURES.map((name) => [name, Number(row[name])])) as RollupFigures;
    const sameKey = (row: typeof first) =>
      sql<boolean>`(company_id, dia, branch_id, user_id, environment_id, agenda_id) =
        (${row.company_id}, ${row.dia}::date, ${row.branch_id}, ${row.user_id}, ${row.environment_id}, ${row.agenda_id})`;

    await t.db
      .updateTable("booking_days")
      .set({ fotos: first.fotos + 2 })
      .where(sameKey(first))
      .execute();
    await t.db.deleteFrom("booking_days").where(sameKey(second)).execute();
    await t.db
      .updateTable("booking_days")
      .set({ sem_status: other.sem_status + 1 })
      .where(sameKey(other))
      .execute();
    const extra = { ...first, dia: "2001-01-01" };
    await t.db.insertInto("booking_days").values(extra).execute();

    const hospital = [
      { key: keyOf(extra), stored: figuresOf(extra), expected: null },
      { key: keyOf(first), stored: { ...figuresOf(first), fotos: first.fotos + 2 }, expected: figuresOf(first) },
      { key: keyOf(second), stored: null, expected: figuresOf(second) },
    ].sort((a, b) => {
      const order = (key: typeof a.key) => [
        key.companyId,
        key.dia,
        key.branchId,
        key.userId,
        key.environmentId,
        key.agendaId,
      ];
      const [x, y] = [order(a.key), order(b.key)];
      const at = x.findIndex((value, index) => value !== y[index]);
      return at < 0 ? 0 : x[at] < y[at] ? -1 : 1;
    });
    const otherDifference = {
      key: keyOf(other),
      stored: { ...figuresOf(other), sem_status: other.sem_status + 1 },
      expected: figuresOf(other),
    };
    expect(await rollupDifferences(t.db, ids.hospital)).toEqual(hospital);
    expect(await rollupDifferences(t.db, ids.other)).toEqual([otherDifference]);
    expect(await rollupDifferences(t.db)).toHaveLength(4);

    // One company rebuilt: its rows are right again, the other company's wrong row is left as it was.
    const rows = await rebuildRollup(t.db, ids.hospital);
    expect(rows).toBe(
      Number(
        (
          await t.db
            .selectFrom("booking_days")
            .select((eb) => eb.fn.countAll<string>().as("n"))
            .where("company_id", "=", ids.hospital)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    );
    expect(await rollupDifferences(t.db)).toEqual([otherDifference]);
    await rebuildRollup(t.db, ids.other);
    expect(await rollupDifferences(t.db)).toEqual([]);
  });

  test("a slot's tasks gone wrong in bookings (a load without triggers): the rebuild mends the column and the roll-up", async () => {
    const [slot] = await recorded();
    const truth = async () =>
      (
        await t.db
          .selectFrom("booking_tasks_recount")
          .select("situacao")
          .where("id", "=", slot.id)
          .executeTakeFirstOrThrow()
      ).situacao;
    const right = await truth();
    const wrong = right === "nenhuma" ? "completa" : "nenhuma";
    await sql`alter table bookings disable trigger booking_days_upd`.execute(t.db);
    await sql`update bookings set tarefas_situacao = ${wrong} where id = ${slot.id}`.execute(t.db);
    await sql`alter table bookings enable trigger booking_days_upd`.execute(t.db);
    const column = async () =>
      (await t.db.selectFrom("bookings").select("tarefas_situacao").where("id", "=", slot.id).executeTakeFirstOrThrow())
        .tarefas_situacao;
    expect(await column()).toBe(wrong);
    await rebuildRollup(t.db, ids.hospital);
    expect({ column: await column(), differences: await rollupDifferences(t.db) }).toEqual({
      column: right,
      differences: [],
    });
  });

  test("TRUNCATE of bookings empties the roll-up", async () => {
    expect(
      Number((await sql<{ n: string }>`select count(*) n from booking_days`.execute(t.db)).rows[0].n),
    ).toBeGreaterThan(0);
    await sql`truncate bookings cascade`.execute(t.db);
    expect(Number((await sql<{ n: string }>`select count(*) n from booking_days`.execute(t.db)).rows[0].n)).toBe(0);
    expect(await rollupDifferences(t.db)).toEqual([]);
  });
});
