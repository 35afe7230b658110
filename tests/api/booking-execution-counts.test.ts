/**
 * bookings.executions and bookings.photos (migration 014; docs/activity-reports.md): the database keeps, on every write
 * to history, each booking's count of history rows and of those with a photo, and the activity reports' filters
 * ('feitas', 'pendentes', 'imagens') read them. Procedures recorded through the execution API raise them; deleting,
 * moving or changing a history row in the database moves them; a bulk insert counts each booking's rows.
 */
import { sql } from "kysely";
import { beforeAll, describe, expect, test } from "vitest";

import type { ActivityFilter } from "../../api/domain/activities.ts";
import { businessToday } from "../../api/domain/schedule-expansion.ts";
import { saveDayAgenda } from "../support/agendas.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds, userByEmail } from "../support/demo.ts";
import { tinyPng } from "../support/files.ts";

const t = useTestApi();

const TODAY = businessToday();
const tokens: Record<string, string> = {};
let room: { id: number; name: string };
let procedures: number[] = [];
/** Today's slots of the ASG's agenda in `room`. */
const slot = { main: 0, revision: 0 };

/** Both slots, in id order (as `views` lists them). */
const both = () => [slot.main, slot.revision].sort((a, b) => a - b);

const png = () => new File([tinyPng() as Uint8Array<ArrayBuffer>], "foto.png", { type: "image/png" });

async function start(booking: number) {
  const answer = await t.post(`/api/execution/bookings/${booking}/start`, undefined, { token: tokens.asg });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

async function recordProcedure(booking: number, procedureId: number, photo: boolean) {
  const form = new FormData();
  form.set("procedureId", String(procedureId));
  if (photo) form.set("photo", png());
  const answer = await t.call("POST", `/api/execution/bookings/${booking}/procedures`, { token: tokens.asg, form });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
}

const counts = (booking: number) =>
  t.db.selectFrom("bookings").select(["executions", "photos"]).where("id", "=", booking).executeTakeFirstOrThrow();

type Item = { id: number; feito: boolean; fotos: number };

/** Our two slots as a filter's view shows them (the room's other slots of today left out), and the view's total. */
async function view(atividade: ActivityFilter) {
  const answer = await t.get(
    `/api/relatorios/atividades?dataIni=${TODAY}&dataFim=${TODAY}&atividade=${atividade}` +
      `&q=${encodeURIComponent(room.name)}&size=160`,
    { token: tokens.admin },
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const items = answer.body.items as Item[];
  expect(answer.body.total).toBe(items.length);
  const ours = Object.values(slot);
  return Object.fromEntries(
    items.filter((item) => ours.includes(item.id)).map((item) => [item.id, { feito: item.feito, fotos: item.fotos }]),
  );
}

async function views() {
  const ids = async (filter: ActivityFilter) =>
    Object.keys(await view(filter))
      .map(Number)
      .sort((a, b) => a - b);
  return { feitas: await ids("feitas"), pendentes: await ids("pendentes"), imagens: await ids("imagens") };
}

beforeAll(async () => {
  tokens.admin = await t.signIn("admin@demo.com.br");
  tokens.asg = await t.signIn("asg@demo.com.br");
  const ids = await demoIds(t.db);
  const asg = (await userByEmail(t.db, "asg@demo.com.br")).id;
  room = await t.db
    .selectFrom("environments as e")
    .innerJoin("environment_procedures as ep", "ep.environment_id", "e.id")
    .select(["e.id", "e.name"])
    .where("e.branch_id", "=", ids.aldeota)
    .where("e.deleted_at", "is", null)
    .groupBy(["e.id", "e.name"])
    .having((eb) => eb.fn.countAll(), ">=", 2)
    .orderBy("e.id")
    .executeTakeFirstOrThrow();
  procedures = (
    await t.db
      .selectFrom("environment_procedures")
      .select("procedure_id")
      .where("environment_id", "=", room.id)
      .orderBy("procedure_id")
      .execute()
  ).map((row) => row.procedure_id);
  const agenda = await saveDayAgenda(t, tokens.admin, {
    branch: ids.aldeota,
    environment: room.id,
    user: asg,
    slots: [
      ["07:00", "07:30"],
      ["15:00", "15:30"],
    ],
  });
  const bookings = await t.db
    .selectFrom("bookings")
    .select("id")
    .where("agenda_id", "=", agenda)
    .orderBy("slot")
    .execute();
  [slot.main, slot.revision] = bookings.map((booking) => booking.id);
});

describe("bookings.executions and bookings.photos", () => {
  test("a new slot counts nothing and is pending", async () => {
    expect(await counts(slot.main)).toEqual({ executions: 0, photos: 0 });
    expect(await counts(slot.revision)).toEqual({ executions: 0, photos: 0 });
    expect(await views()).toEqual({ feitas: [], pendentes: both(), imagens: [] });
  });

  test("procedures recorded through the execution API count, those with a photo in photos too", async () => {
    await start(slot.main);
    await recordProcedure(slot.main, procedures[0], true);
    expect(await counts(slot.main)).toEqual({ executions: 1, photos: 1 });
    await recordProcedure(slot.main, procedures[1], false);
    expect(await counts(slot.main)).toEqual({ executions: 2, photos: 1 });
    await start(slot.revision);
    await recordProcedure(slot.revision, procedures[0], false);
    expect(await counts(slot.revision)).toEqual({ executions: 1, photos: 0 });

    expect(await views()).toEqual({ feitas: both(), pendentes: [], imagens: [slot.main] });
    expect((await view("todos"))[slot.main]).toEqual({ feito: true, fotos: 1 });
    expect((await view("todos"))[slot.revision]).toEqual({ feito: true, fotos: 0 });
  });

  test("deleting a history row lowers them; changing its photo or its booking moves them", async () => {
    const history = (booking: number) =>
      t.db.selectFrom("history").select(["id", "image"]).where("booking_id", "=", booking).orderBy("id").execute();
    const [withPhoto] = (await history(slot.main)).filter((row) => row.image !== null);
    await t.db.deleteFrom("history").where("id", "=", withPhoto.id).execute();
    expect(await counts(slot.main)).toEqual({ executions: 1, photos: 0 });
    expect(await views()).toEqual({ feitas: both(), pendentes: [], imagens: [] });

    // A photo given to the revision's row, then the row moved to the main slot.
    const [revisionRow] = await history(slot.revision);
    await t.db.updateTable("history").set({ image: "corrigida.jpg" }).where("id", "=", revisionRow.id).execute();
    expect(await counts(slot.revision)).toEqual({ executions: 1, photos: 1 });
    await t.db.updateTable("history").set({ observacao: "sem efeito nos totais" }).execute();
    expect(await counts(slot.revision)).toEqual({ executions: 1, photos: 1 });
    await t.db.updateTable("history").set({ booking_id: slot.main }).where("id", "=", revisionRow.id).execute();
    expect(await counts(slot.revision)).toEqual({ executions: 0, photos: 0 });
    expect(await counts(slot.main)).toEqual({ executions: 2, photos: 1 });
    expect(await views()).toEqual({ feitas: [slot.main], pendentes: [slot.revision], imagens: [slot.main] });

    // Every row of a booking deleted at once (one statement): back to pending.
    await t.db.deleteFrom("history").where("booking_id", "=", slot.main).execute();
    expect(await counts(slot.main)).toEqual({ executions: 0, photos: 0 });
    expect(await views()).toEqual({ feitas: [], pendentes: both(), imagens: [] });
  });

  test("a bulk insert of many bookings' rows in one statement (as bench/history-data.ts): every booking's counts equal its history", async () => {
    // The test database holds no demo agendas: today's two slots, both back to nothing, and any other test's.
    const some = await t.db.selectFrom("bookings").select("id").where("executions", "=", 0).orderBy("id").execute();
    expect(some.map((booking) => booking.id)).toEqual(expect.arrayContaining(both()));
    await sql`
      insert into history (booking_id, procedure_id, user_id, image)
      select b.id, ${procedures[0]}, b.user_id, case when n = 2 then 'lote-' || b.id || '.jpg' end
      from bookings b cross join generate_series(1, 3) n
      where b.id = any(${some.map((booking) => booking.id)}::int[])`.execute(t.db);
    for (const booking of some) expect(await counts(booking.id)).toEqual({ executions: 3, photos: 1 });
    const totals = await sql<{ bookings: string; wrong: string }>`
      select count(*) bookings,
        count(*) filter (where b.executions <> coalesce(h.executions, 0) or b.photos <> coalesce(h.photos, 0)) wrong
      from bookings b
      left join (select booking_id, count(*) executions, count(image) photos from history group by booking_id) h
        on h.booking_id = b.id`.execute(t.db);
    expect(Number(totals.rows[0].bookings)).toBeGreaterThanOrEqual(2);
    expect(Number(totals.rows[0].wrong)).toBe(0);
  });
});
