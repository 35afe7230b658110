import { sql, type Kysely } from "kysely";

import { inspectionScore, INSPECTION_LIMITS, passes, type Answer } from "../domain/inspections.ts";

import type { DB } from "./schema.ts";

/**
 * Demo checklists and inspections (issue 29, docs/inspections.md): every branch's 'Banheiro' and 'Enfermaria' (and
 * the second tenant's 'Escritório central') get a checklist, and their rooms six weeks of weekly inspections by the
 * company's auditor (or an administrator), mostly passing, with a failed one re-inspected, so /inspecoes, the scores
 * and the dashboard's chart show real figures. Scored with the same rule as a submission.
 */

type Template = [texto: string, peso: number, procedimento: string | null][];
const TEMPLATES: Record<string, { nome: string; itens: Template }> = {
  banheiro: {
    nome: "Banheiro padrão",
    itens: [
      ["Piso limpo e seco", 3, "Limpar piso"],
      ["Vaso sanitário higienizado", 5, "Limpar vaso sanitário"],
      ["Pias e bancadas limpas", 3, "Higienizar pias"],
      ["Papel toalha abastecido", 2, "Repor papel toalha"],
      ["Sabonete abastecido", 2, "Repor sabonete"],
      ["Lixeiras vazias", 2, "Recolher lixo"],
      ["Espelhos sem manchas", 1, "Limpar vidros"],
    ],
  },
  enfermaria: {
    nome: "Enfermaria",
    itens: [
      ["Superfícies desinfetadas", 5, "Desinfetar superfícies"],
      ["Piso limpo", 3, "Limpar piso"],
      ["Lixo recolhido", 3, "Recolher lixo"],
      ["Pia higienizada", 2, "Higienizar pias"],
      ["Janelas e vidros limpos", 1, "Limpar vidros"],
    ],
  },
  "escritório central": {
    nome: "Escritório",
    itens: [
      ["Piso limpo", 3, null],
      ["Mesas sem poeira", 2, null],
      ["Lixeiras vazias", 2, null],
    ],
  },
};

const WEEKS = 6;

export async function seedDemoInspections(db: Kysely<DB>, now: Date) {
  const categories = await db
    .selectFrom("categories as k")
    .innerJoin("branches as b", "b.id", "k.branch_id")
    .select(["k.id", "k.name", "k.company_id", "k.branch_id"])
    .where("k.deleted_at", "is", null)
    .where("b.ativo", "=", true)
    .where(sql<string>`lower(k.name)`, "in", Object.keys(TEMPLATES))
    .orderBy("k.id")
    .execute();
  for (const [categoryIndex, category] of categories.entries()) {
    const template = TEMPLATES[category.name.toLowerCase()]!;
    const inspector = await db
      .selectFrom("users")
      .select("id")
      .where("company_id", "=", category.company_id)
      .where("role_id", "in", [4, 2, 1])
      .orderBy(sql`case role_id when 4 then 0 when 2 then 1 else 2 end`)
      .orderBy("id")
      .executeTakeFirst();
    if (!inspector) continue;
    const procedures = await db
      .selectFrom("procedures")
      .select(["id", "name"])
      .where("branch_id", "=", category.branch_id)
      .where("deleted_at", "is", null)
      .execute();
    const procedureId = (name: string | null) => procedures.find((row) => row.name === name)?.id ?? null;
    const created = new Date(now.getTime() - (WEEKS * 7 + 1) * 86_400_000);
    const checklist = await db
      .insertInto("checklists")
      .values({
        company_id: category.company_id,
        branch_id: category.branch_id,
        category_id: category.id,
        nome: template.nome,
        created_at: created,
        updated_at: created,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const items = await db
      .insertInto("checklist_items")
      .values(
        template.itens.map(([texto, peso, procedimento], index) => ({
          checklist_id: checklist.id,
          versao: 1,
          posicao: index + 1,
          texto,
          peso,
          procedure_id: procedureId(procedimento),
        })),
      )
      .returning(["id", "peso"])
      .execute();
    const rooms = await db
      .selectFrom("environments")
      .select(["id", "branch_id"])
      .where("category_id", "=", category.id)
      .where("deleted_at", "is", null)
      .orderBy("id")
      .limit(3)
      .execute();
    const { nota_minima_inspecao } = await db
      .selectFrom("companies")
      .select("nota_minima_inspecao")
      .where("id", "=", category.company_id)
      .executeTakeFirstOrThrow();
    const mark = Number(nota_minima_inspecao ?? INSPECTION_LIMITS.defaultPassMark);
    for (const [roomIndex, room] of rooms.entries()) {
      let previous: { id: number; aprovada: boolean } | null = null;
      for (let week = WEEKS - 1; week >= 0; week--) {
        // A fixed pattern per room and week: a failure or two now and then, an item that does not apply at times.
        const seed = categoryIndex * 7 + roomIndex * 5 + week * 3;
        const answers = items.map((item, index): { itemId: number; peso: number; resposta: Answer } => ({
          itemId: item.id,
          peso: item.peso,
          resposta:
            (index * 7 + seed) % 11 === 0 || (week === 1 && roomIndex === 0 && index === 1)
              ? "nao_conforme"
              : (index + seed) % 13 === 0
                ? "nao_se_aplica"
                : "conforme",
        }));
        const at = new Date(now.getTime() - (week * 7 + roomIndex) * 86_400_000 - 3 * 3_600_000);
        previous = await insertInspection(db, {
          category,
          roomId: room.id,
          checklistId: checklist.id,
          inspectorId: inspector.id,
          answers,
          mark,
          at,
          reinspecaoDe: null,
        });
        // A failed inspection of the week before last is checked again the day after, all items right.
        if (week === 1 && roomIndex === 0 && !previous.aprovada)
          await insertInspection(db, {
            category,
            roomId: room.id,
            checklistId: checklist.id,
            inspectorId: inspector.id,
            answers: answers.map((answer) => ({ ...answer, resposta: "conforme" })),
            mark,
            at: new Date(at.getTime() + 86_400_000),
            reinspecaoDe: previous.id,
          });
      }
    }
  }
  // The ninth chart of /auditoria is ours: the first demo company shows it.
  const first = await db.selectFrom("companies").select("id").orderBy("id").executeTakeFirst();
  if (first)
    await db
      .insertInto("company_boards")
      .values({ company_id: first.id, board_id: 9 })
      .onConflict((oc) => oc.doNothing())
      .execute();
}

async function insertInspection(
  db: Kysely<DB>,
  input: {
    category: { company_id: number; branch_id: number };
    roomId: number;
    checklistId: number;
    inspectorId: number;
    answers: { itemId: number; peso: number; resposta: Answer }[];
    mark: number;
    at: Date;
    reinspecaoDe: number | null;
  },
) {
  const score = inspectionScore(input.answers)!;
  const aprovada = passes(score.nota, input.mark);
  const row = await db
    .insertInto("inspections")
    .values({
      company_id: input.category.company_id,
      branch_id: input.category.branch_id,
      environment_id: input.roomId,
      checklist_id: input.checklistId,
      versao: 1,
      inspector_id: input.inspectorId,
      reinspecao_de: input.reinspecaoDe,
      observacao: input.reinspecaoDe ? "Reinspeção após correção" : "",
      pontos_conforme: score.conforme,
      pontos_aplicaveis: score.aplicaveis,
      nota: String(score.nota),
      nota_minima: String(input.mark),
      aprovada,
      created_at: input.at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("inspection_answers")
    .values(
      input.answers.map((answer) => ({
        inspection_id: row.id,
        item_id: answer.itemId,
        resposta: answer.resposta,
        observacao: answer.resposta === "nao_conforme" ? "Encontrado fora do padrão" : "",
      })),
    )
    .execute();
  return { id: row.id, aprovada };
}
