import type { Kysely } from "kysely";

import type { DB } from "./schema.ts";

/**
 * Demo incidents and ratings (issue 28, docs/incidents.md): in each company's first rooms, one open report merged
 * from two visitors, one being handled and past its deadline, and a few weeks of visitors' ratings, so /ocorrencias
 * and the room pages show real cases. Written as a visitor's report would be (incident + its timeline).
 */
export async function seedDemoIncidents(db: Kysely<DB>, now: Date) {
  const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
  const companies = await db.selectFrom("companies").select("id").orderBy("id").execute();
  for (const company of companies) {
    const rooms = await db
      .selectFrom("environments")
      .select(["id", "branch_id"])
      .where("company_id", "=", company.id)
      .where("deleted_at", "is", null)
      .orderBy("id")
      .limit(3)
      .execute();
    const kinds = await db
      .selectFrom("incident_kinds")
      .select(["id", "nome", "prazo_minutos"])
      .where("company_id", "=", company.id)
      .execute();
    const kind = (nome: string) => kinds.find((candidate) => candidate.nome === nome)!;
    const cases = [
      { room: rooms[0], kind: kind("Lixo cheio"), descricao: "Lixeira da entrada cheia", ago: 30, relatos: 2 },
      { room: rooms[1], kind: kind("Falta de papel/sabonete"), descricao: "Sem papel toalha", ago: 180, relatos: 1 },
    ];
    for (const [index, item] of cases.entries()) {
      if (!item.room || !item.kind) continue;
      const reported = minutesAgo(item.ago);
      const handled = index === 1;
      const prazo = new Date(reported.getTime() + item.kind.prazo_minutos * 60_000);
      const incident = await db
        .insertInto("incidents")
        .values({
          company_id: company.id,
          branch_id: item.room.branch_id,
          environment_id: item.room.id,
          kind_id: item.kind.id,
          status: handled ? "em_atendimento" : "aberta",
          descricao: item.descricao,
          relatos: item.relatos,
          ultimo_relato_at: minutesAgo(item.ago - 5 * (item.relatos - 1)),
          prazo_at: prazo,
          created_at: reported,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const events: { tipo: "aberta" | "relato_repetido" | "em_atendimento"; detalhe: string; at: Date }[] = [
        { tipo: "aberta", detalhe: "Relatado por um visitante", at: reported },
      ];
      if (item.relatos > 1)
        events.push({
          tipo: "relato_repetido",
          detalhe: "Relato repetido por um visitante",
          at: minutesAgo(item.ago - 5),
        });
      if (handled) events.push({ tipo: "em_atendimento", detalhe: "", at: minutesAgo(item.ago - 20) });
      await db
        .insertInto("incident_events")
        .values(
          events.map((event) => ({
            incident_id: incident.id,
            tipo: event.tipo,
            detalhe: event.detalhe,
            created_at: event.at,
          })),
        )
        .execute();
      // Its alerts as the report queued them: the opening one already sent, the overdue one due at the deadline.
      await db
        .insertInto("incident_alerts")
        .values([
          { incident_id: incident.id, tipo: "aberta", due_at: reported, done_at: reported },
          { incident_id: incident.id, tipo: "atrasada", due_at: prazo },
        ])
        .execute();
    }
    // Three weeks of ratings of the first rooms: mostly good, a few bad ones.
    const ratings = rooms.flatMap((room, roomIndex) =>
      Array.from({ length: 21 }, (_, day) => ({
        company_id: company.id,
        branch_id: room.branch_id,
        environment_id: room.id,
        nota: [5, 4, 4, 5, 3, 5, 2][(day + roomIndex) % 7]!,
        created_at: minutesAgo(day * 24 * 60 + 60 * (roomIndex + 1)),
      })),
    );
    if (ratings.length) await db.insertInto("room_ratings").values(ratings).execute();
  }
}
