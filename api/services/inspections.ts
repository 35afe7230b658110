import { sql, type Kysely } from "kysely";

import { scopeBranch, type Scope } from "../auth/scope.ts";
import type { Database } from "../db/connection.ts";
import type { DB } from "../db/schema.ts";
import {
  ANSWERS,
  type Answer,
  INSPECTION_LIMITS as L,
  INSPECTION_TEXTS as T,
  inspectionScore,
  passes,
} from "../domain/inspections.ts";
import { MAX_PAGE_ROWS } from "../domain/limits.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { CURSOR_INVALID, decodeCursor, encodeCursor, foldSearch, foldText, sqlInt } from "../lib/list-query.ts";

import { checklistItems, passMark } from "./checklists.ts";
import { EXECUTION_TEXTS, PHOTO_MAX_BYTES } from "./execution.ts";
import { reencodedPhoto } from "./incidents.ts";
import { writeNamingFiles } from "./orphan-files.ts";
import type { Storage } from "./storage.ts";

/**
 * Scored inspections (issue 29 §2–4, docs/inspections.md): an inspector opens a room whose category has a checklist,
 * answers each item of its current version (Conforme, Não conforme, Não se aplica, a note and photos) and submits;
 * the score and the pass mark it was held to are written once with the answers, so neither a later edit of the
 * checklist nor a new pass mark changes a past result. A re-inspection names the inspection it checks again.
 */

export const INSPECTION_PHOTO_FOLDER = "inspections";

type Deps = { database: Database; storage: Storage };

/** The rooms of the scope whose category has a checklist, by name, one page, with their latest inspection. */
export async function inspectableRooms(
  db: Kysely<DB>,
  scope: Scope,
  filters: { branchId?: number; q?: string; page: number; size: number },
) {
  const branch = scopeBranch(scope) ?? filters.branchId ?? null;
  const size = Math.min(filters.size || MAX_PAGE_ROWS, MAX_PAGE_ROWS);
  const term = filters.q ? foldSearch(filters.q) : null;
  const query = db
    .selectFrom("environments as e")
    .innerJoin("checklists as c", "c.category_id", "e.category_id")
    .innerJoin("branches as b", "b.id", "e.branch_id")
    .where("e.company_id", "=", scope.companyId)
    .where("e.deleted_at", "is", null)
    .$if(branch !== null, (qb) => qb.where("e.branch_id", "=", branch!))
    .$if(term !== null, (qb) => qb.where(foldText("e.name"), "like", `%${term}%`));
  const [rows, total] = await Promise.all([
    query
      .select((eb) => [
        "e.id",
        "e.name as ambiente",
        "b.id as branch_id",
        "b.nome as filial",
        "c.nome as checklist",
        eb
          .selectFrom("inspections as x")
          .select(
            sql<string>`json_build_object('id', x.id, 'nota', x.nota, 'aprovada', x.aprovada, 'em', x.created_at)`.as(
              "j",
            ),
          )
          .whereRef("x.environment_id", "=", "e.id")
          .orderBy("x.created_at", "desc")
          .limit(1)
          .as("ultima"),
      ])
      .orderBy("e.name")
      .orderBy("e.id")
      .limit(size)
      .offset((filters.page - 1) * size)
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const items = rows.map((row) => {
    const last = row.ultima as unknown as { id: number; nota: string; aprovada: boolean; em: string } | null;
    return {
      ...row,
      ultima: last ? { id: last.id, nota: Number(last.nota), aprovada: last.aprovada, em: new Date(last.em) } : null,
    };
  });
  return { items, total: Number(total.n), page: filters.page, size };
}

/** The room in scope with its checklist's current version: what the inspection form draws. */
export async function inspectionForm(db: Kysely<DB>, scope: Scope, environmentId: number, reinspecaoDe?: number) {
  const branch = scopeBranch(scope);
  // A room of another tenant or branch, or removed, is 404 like any id out of scope.
  const room = await db
    .selectFrom("environments as e")
    .innerJoin("branches as b", "b.id", "e.branch_id")
    .leftJoin("checklists as c", "c.category_id", "e.category_id")
    .select([
      "e.id",
      "e.name as ambiente",
      "b.id as branch_id",
      "b.nome as filial",
      "c.id as checklist_id",
      "c.nome as checklist",
      "c.versao",
    ])
    .where("e.id", "=", environmentId)
    .where("e.company_id", "=", scope.companyId)
    .$if(branch !== null, (qb) => qb.where("e.branch_id", "=", branch!))
    .where("e.deleted_at", "is", null)
    .executeTakeFirst();
  if (!room) throw notFound(T.roomNotFound);
  // The inspection checked again first: one out of scope is 404 whatever the room.
  const previous = reinspecaoDe !== undefined ? await readInspection(db, scope, reinspecaoDe) : null;
  if (room.checklist_id === null || room.versao === null) throw new ApiError(409, T.noChecklist);
  if (previous && previous.environment_id !== environmentId)
    throw new ApiError(400, T.reinspectionOtherRoom, { reinspecaoDe: [T.reinspectionOtherRoom] });
  return {
    ...room,
    checklist_id: room.checklist_id,
    versao: room.versao,
    itens: await checklistItems(db, room.checklist_id, room.versao),
    notaMinima: await passMark(db, scope.companyId),
    anterior: previous,
  };
}

export type AnswerInput = { itemId: number; resposta: string; observacao: string; fotos: Uint8Array[] };
export type InspectionInput = {
  environmentId: number;
  /** The checklist version the form was drawn with: answers are for its items. */
  versao: number;
  reinspecaoDe?: number;
  observacao: string;
  respostas: AnswerInput[];
};

/** The photos checked like the execution API's (size, the type read from the bytes), re-encoded without metadata. */
async function checkedPhotos(photos: Uint8Array[]) {
  for (const photo of photos)
    if (photo.byteLength > PHOTO_MAX_BYTES) throw new ApiError(413, EXECUTION_TEXTS.photoTooBig);
  const encoded: Uint8Array[] = [];
  // One at a time: decoding is the costly step, and one submission should not take every core.
  for (const photo of photos) encoded.push(await reencodedPhoto(photo));
  return encoded;
}

/**
 * 'Registrar inspeção': every item of the version answered, the score computed from the version's weights and the
 * company's pass mark of now, all written in one transaction; the photos are checked first, then stored, then the
 * rows (never a row naming a missing file); a failed write removes the photos it stored.
 */
export async function submitInspection(
  deps: Deps,
  scope: Scope,
  inspectorId: number,
  input: InspectionInput,
  now: Date,
) {
  const { db } = deps.database;
  const form = await inspectionForm(db, scope, input.environmentId, input.reinspecaoDe);
  const observacao = input.observacao.trim();
  if (observacao.length > L.observationMax)
    throw new ApiError(400, T.observationTooLong, { observacao: [T.observationTooLong] });
  // Answers are for the version the form was drawn with: a checklist changed meanwhile asks for the form again.
  if (input.versao !== form.versao) throw new ApiError(409, T.checklistChanged);
  const versao = form.versao;
  const itens = form.itens;
  const photoCount = input.respostas.reduce((sum, answer) => sum + answer.fotos.length, 0);
  if (photoCount > L.photosPerInspection) throw new ApiError(400, T.tooManyPhotosInAll);
  const byItem = new Map(input.respostas.map((answer) => [answer.itemId, answer]));
  const answers = itens.map((item) => {
    const answer = byItem.get(item.id);
    if (!answer || !(ANSWERS as readonly string[]).includes(answer.resposta))
      throw new ApiError(400, T.answerRequired, { [`resposta_${item.id}`]: [T.answerRequired] });
    const note = answer.observacao.trim();
    if (note.length > L.noteMax) throw new ApiError(400, T.noteTooLong, { [`observacao_${item.id}`]: [T.noteTooLong] });
    if (answer.fotos.length > L.photosPerItem)
      throw new ApiError(400, T.tooManyPhotos, { [`fotos_${item.id}`]: [T.tooManyPhotos] });
    return { item, resposta: answer.resposta as Answer, observacao: note, fotos: answer.fotos };
  });
  const score = inspectionScore(answers.map((answer) => ({ peso: answer.item.peso, resposta: answer.resposta })));
  if (!score) throw new ApiError(400, T.nothingApplicable);
  // Every photo checked and re-encoded before any is saved: a bad one in the last item leaves no file behind.
  const encoded: Uint8Array[][] = [];
  for (const answer of answers) encoded.push(await checkedPhotos(answer.fotos));
  const notaMinima = form.notaMinima;
  // A failed write removes the photos it stored (writeNamingFiles, docs/storage.md 'Orphan files').
  return writeNamingFiles({ db, storage: deps.storage }, INSPECTION_PHOTO_FOLDER, async (save) => {
    const stored = await Promise.all(encoded.map((photos) => Promise.all(photos.map(save))));
    return db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto("inspections")
        .values({
          company_id: scope.companyId,
          branch_id: form.branch_id,
          environment_id: form.id,
          checklist_id: form.checklist_id,
          versao,
          inspector_id: inspectorId,
          reinspecao_de: input.reinspecaoDe ?? null,
          observacao,
          pontos_conforme: score.conforme,
          pontos_aplicaveis: score.aplicaveis,
          nota: String(score.nota),
          nota_minima: String(notaMinima),
          aprovada: passes(score.nota, notaMinima),
          created_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx
        .insertInto("inspection_answers")
        .values(
          answers.map((answer, index) => ({
            inspection_id: row.id,
            item_id: answer.item.id,
            resposta: answer.resposta,
            observacao: answer.observacao,
            fotos: stored[index]!,
          })),
        )
        .execute();
      return row.id;
    });
  });
}

export type InspectionFilters = {
  branchId?: number;
  environmentId?: number;
  /** yyyy-MM-dd, the day inspected, in America/Fortaleza. */
  from?: string;
  to?: string;
  resultado?: "aprovada" | "reprovada";
  page: number;
  size: number;
};

function scoped(db: Kysely<DB>, scope: Scope) {
  const branch = scopeBranch(scope);
  return db
    .selectFrom("inspections as x")
    .where("x.company_id", "=", scope.companyId)
    .$if(branch !== null, (qb) => qb.where("x.branch_id", "=", branch!));
}

const dayStart = (day: string) => sql<Date>`(${day}::date)::timestamp at time zone 'America/Fortaleza'`;
const dayEnd = (day: string) => sql<Date>`((${day}::date + 1)::timestamp) at time zone 'America/Fortaleza'`;

function filtered(db: Kysely<DB>, scope: Scope, filters: Omit<InspectionFilters, "page" | "size">) {
  return scoped(db, scope)
    .$if(filters.branchId !== undefined, (qb) => qb.where("x.branch_id", "=", filters.branchId!))
    .$if(filters.environmentId !== undefined, (qb) => qb.where("x.environment_id", "=", filters.environmentId!))
    .$if(filters.from !== undefined, (qb) => qb.where("x.created_at", ">=", dayStart(filters.from!)))
    .$if(filters.to !== undefined, (qb) => qb.where("x.created_at", "<", dayEnd(filters.to!)))
    .$if(filters.resultado !== undefined, (qb) => qb.where("x.aprovada", "=", filters.resultado === "aprovada"));
}

const LIST_COLUMNS = [
  "x.id",
  "x.nota",
  "x.nota_minima",
  "x.aprovada",
  "x.created_at",
  "x.reinspecao_de",
  "x.environment_id",
  "e.name as ambiente",
  "b.id as branch_id",
  "b.nome as filial",
  "u.nome as inspetor",
  "c.nome as checklist",
  "x.versao",
] as const;

const withNumbers = <Row extends { nota: string; nota_minima: string }>(
  row: Row,
): Omit<Row, "nota" | "nota_minima"> & { nota: number; nota_minima: number } => ({
  ...row,
  nota: Number(row.nota),
  nota_minima: Number(row.nota_minima),
});

const CURSOR_FORMAT = 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"';
/** A key as newestIds writes it: the instant in UTC with six decimals. */
const CURSOR_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/**
 * The ids of the inspections in scope under the list's filters, newest first, each with its keyset key: created_at in
 * UTC to the microsecond (what the column holds; a Date would drop the microseconds and skip or repeat a row).
 */
function newestIds(db: Kysely<DB>, scope: Scope, filters: Omit<InspectionFilters, "page" | "size">) {
  return filtered(db, scope, filters)
    .select(["x.id", sql<string>`to_char(x.created_at at time zone 'UTC', ${CURSOR_FORMAT})`.as("sort_key")])
    .orderBy("x.created_at", "desc")
    .orderBy("x.id", "desc");
}

/**
 * The rows of the ids found (from the (company or branch, created_at) index first), joined to their names after, so a
 * deep page or a late chunk does not join the rows it skips. Newest first.
 */
function namedRows(db: Kysely<DB>, ids: ReturnType<typeof newestIds>) {
  return db
    .with("p", () => ids)
    .selectFrom("p")
    .innerJoin("inspections as x", "x.id", "p.id")
    .innerJoin("environments as e", "e.id", "x.environment_id")
    .innerJoin("branches as b", "b.id", "x.branch_id")
    .innerJoin("users as u", "u.id", "x.inspector_id")
    .innerJoin("checklists as c", "c.id", "x.checklist_id")
    .select([...LIST_COLUMNS, "p.sort_key"])
    .orderBy("x.created_at", "desc")
    .orderBy("x.id", "desc")
    .execute();
}

/** A page of the inspections in scope, newest first, with the total under the filters. */
export async function listInspections(db: Kysely<DB>, scope: Scope, filters: InspectionFilters) {
  const size = Math.min(filters.size || MAX_PAGE_ROWS, MAX_PAGE_ROWS);
  const [rows, total] = await Promise.all([
    namedRows(
      db,
      newestIds(db, scope, filters)
        .limit(size)
        .offset((filters.page - 1) * size),
    ),
    inspectionDays(db, scope, filters)
      .select(
        (filters.resultado === "aprovada"
          ? sql<string>`coalesce(sum(d.aprovadas), 0)`
          : filters.resultado === "reprovada"
            ? sql<string>`coalesce(sum(d.inspecoes - d.aprovadas), 0)`
            : sql<string>`coalesce(sum(d.inspecoes), 0)`
        ).as("n"),
      )
      .executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map(({ sort_key: _key, ...row }) => withNumbers(row)),
    total: Number(total.n),
    page: filters.page,
    size,
  };
}

/**
 * One keyset chunk of the same list (the downloads read it chunk after chunk): the inspections after the cursor
 * `after` ('' for the first; list-query's opaque cursor of created_at and id), at most `size`, in the list's order, and
 * the cursor of the next chunk (null after the last). Every chunk is the same index walk, however far in. A cursor the
 * API did not give is a 400.
 */
export async function chunkInspections(
  db: Kysely<DB>,
  scope: Scope,
  filters: Omit<InspectionFilters, "page" | "size"> & { after: string; size: number },
) {
  const cursor = filters.after === "" ? null : decodeCursor(filters.after);
  if (cursor && !validCursor(cursor)) throw new ApiError(400, CURSOR_INVALID, { after: [CURSOR_INVALID] });
  const ids = newestIds(db, scope, filters);
  const rows = await namedRows(
    db,
    (cursor ? ids.where(sql<boolean>`(x.created_at, x.id) < (${cursor.key}::timestamptz, ${cursor.id})`) : ids).limit(
      sqlInt(filters.size + 1),
    ),
  );
  const more = rows.length > filters.size;
  const chunk = more ? rows.slice(0, filters.size) : rows;
  const last = chunk.at(-1);
  return {
    items: chunk.map(({ sort_key: _key, ...row }) => withNumbers(row)),
    next: more && last ? encodeCursor({ key: last.sort_key, id: last.id }) : null,
  };
}

/** A key newestIds could have written (a real instant: '2025-02-30' is not) and an id the column can hold. */
function validCursor({ key, id }: { key: string; id: number }) {
  if (!CURSOR_KEY.test(key) || id > 2_147_483_647) return false;
  const milliseconds = `${key.slice(0, 23)}Z`;
  const instant = new Date(milliseconds);
  return !Number.isNaN(instant.getTime()) && instant.toISOString() === milliseconds;
}

/**
 * The daily roll-up (inspection_days, kept by a trigger with the inspections) in scope and under the list's filters
 * but the result: the totals and the scores read it instead of every inspection.
 */
export function inspectionDays(
  db: Kysely<DB>,
  scope: Scope,
  filters: { branchId?: number; environmentId?: number; from?: string; to?: string },
) {
  const branch = scopeBranch(scope);
  return db
    .selectFrom("inspection_days as d")
    .where("d.company_id", "=", scope.companyId)
    .$if(branch !== null, (qb) => qb.where("d.branch_id", "=", branch!))
    .$if(filters.branchId !== undefined, (qb) => qb.where("d.branch_id", "=", filters.branchId!))
    .$if(filters.environmentId !== undefined, (qb) => qb.where("d.environment_id", "=", filters.environmentId!))
    .$if(filters.from !== undefined, (qb) => qb.where("d.dia", ">=", filters.from!))
    .$if(filters.to !== undefined, (qb) => qb.where("d.dia", "<=", filters.to!));
}

/** One inspection in scope with its answers (item, weight, answer, note, photos, incident), in the item order. */
export async function readInspection(db: Kysely<DB>, scope: Scope, id: number) {
  const row = await scoped(db, scope)
    .innerJoin("environments as e", "e.id", "x.environment_id")
    .innerJoin("branches as b", "b.id", "x.branch_id")
    .innerJoin("users as u", "u.id", "x.inspector_id")
    .innerJoin("checklists as c", "c.id", "x.checklist_id")
    .select([...LIST_COLUMNS, "x.checklist_id", "x.observacao", "x.pontos_conforme", "x.pontos_aplicaveis"])
    .where("x.id", "=", id)
    .executeTakeFirst();
  if (!row) throw notFound(T.notFound);
  const [answers, reinspections] = await Promise.all([
    db
      .selectFrom("inspection_answers as a")
      .innerJoin("checklist_items as i", "i.id", "a.item_id")
      .leftJoin("procedures as p", "p.id", "i.procedure_id")
      .leftJoin("incidents as o", "o.id", "a.incident_id")
      .select([
        "i.id as item_id",
        "i.chave",
        "i.posicao",
        "i.texto",
        "i.peso",
        "p.name as procedimento",
        "a.resposta",
        "a.observacao",
        "a.fotos",
        "a.incident_id",
        "o.status as incident_status",
      ])
      .where("a.inspection_id", "=", id)
      .orderBy("i.posicao")
      .limit(L.itemsMax)
      .execute(),
    db
      .selectFrom("inspections")
      .select(["id", "nota", "aprovada", "created_at"])
      .where("reinspecao_de", "=", id)
      .orderBy("created_at")
      .limit(20)
      .execute(),
  ]);
  return {
    ...withNumbers(row),
    respostas: answers,
    reinspecoes: reinspections.map((r) => ({ ...r, nota: Number(r.nota) })),
  };
}

export type InspectionDetail = Awaited<ReturnType<typeof readInspection>>;

/**
 * What changed since the inspection a re-inspection checks again: item by item (matched by the item's key, which an
 * edit of the checklist keeps), the answer then and now; items new or gone since have one side only.
 */
export function inspectionChanges(previous: InspectionDetail, current: InspectionDetail) {
  const before = new Map(previous.respostas.map((answer) => [answer.chave, answer.resposta]));
  const now = new Set(current.respostas.map((answer) => answer.chave));
  return [
    ...current.respostas.map((answer) => ({
      chave: answer.chave,
      texto: answer.texto,
      antes: before.get(answer.chave) ?? null,
      agora: answer.resposta as Answer | null,
    })),
    // Items removed from the checklist since: the answer then, none now.
    ...previous.respostas
      .filter((answer) => !now.has(answer.chave))
      .map((answer) => ({ chave: answer.chave, texto: answer.texto, antes: answer.resposta, agora: null })),
  ];
}

/**
 * Scores of the period grouped by room, branch or week (the week starting Monday), from the daily roll-up: the mean
 * is Σ scores ÷ inspections of the group, rounded to one decimal. Rooms and branches: lowest mean first, at most 160.
 */
export async function inspectionScores(
  db: Kysely<DB>,
  scope: Scope,
  filters: { branchId?: number; from: string; to: string; by: "ambiente" | "filial" | "semana" },
) {
  const days = inspectionDays(db, scope, filters);
  const sums = [
    sql<number>`sum(d.inspecoes)::int`.as("inspecoes"),
    sql<string>`round(sum(d.soma_nota) / sum(d.inspecoes), 1)`.as("media"),
    sql<number>`sum(d.aprovadas)::int`.as("aprovadas"),
  ] as const;
  if (filters.by === "semana") {
    const week = sql<string>`to_char(date_trunc('week', d.dia), 'YYYY-MM-DD')`;
    const rows = await days
      .select([week.as("chave"), ...sums])
      .groupBy(week)
      .orderBy(week)
      .limit(60)
      .execute();
    return rows.map((row) => ({ ...row, nome: row.chave, media: Number(row.media) }));
  }
  // Grouped by id first, then the few groups named.
  const key = filters.by === "filial" ? "d.branch_id" : "d.environment_id";
  const groups = days.select([sql<number>`${sql.ref(key)}`.as("id"), ...sums]).groupBy(key);
  const named =
    filters.by === "filial"
      ? db
          .with("g", () => groups)
          .selectFrom("g")
          .innerJoin("branches as n", "n.id", "g.id")
          .select(["g.id", "g.inspecoes", "g.media", "g.aprovadas", "n.nome as nome"])
      : db
          .with("g", () => groups)
          .selectFrom("g")
          .innerJoin("environments as n", "n.id", "g.id")
          .select(["g.id", "g.inspecoes", "g.media", "g.aprovadas", "n.name as nome"]);
  const rows = await named.orderBy("g.media").orderBy("nome").orderBy("g.id").limit(160).execute();
  return rows.map((row) => ({ ...row, chave: String(row.id), media: Number(row.media) }));
}
