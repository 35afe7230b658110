import type { Kysely } from "kysely";

import type { Scope } from "../auth/scope.ts";
import type { DB } from "../db/schema.ts";
import { INSPECTION_TEXTS as T } from "../domain/inspections.ts";
import { can, type UserForRole } from "../domain/roles.ts";
import { ApiError, notFound } from "../lib/errors.ts";

import { checkedCorrective, createCorrective, type CorrectiveInput } from "./incident-resolution.ts";
import { INCIDENT_PHOTO_FOLDER, insertIncident } from "./incidents.ts";
import { INSPECTION_PHOTO_FOLDER, readInspection } from "./inspections.ts";
import { writeNamingFiles } from "./orphan-files.ts";
import type { Storage } from "./storage.ts";

/**
 * Failures become work (issue 29 §3, docs/inspections.md): a 'Não conforme' item opens an incident of a kind the
 * inspector chooses (the incident loop takes it from there: owner, deadline, alerts, proof), and a manager may ask in
 * the same step for a corrective cleaning by one of the room's branch's ASGs. One incident per failed item.
 */

export type FailureInput = { kindId: number; corrective?: CorrectiveInput };

export async function openFailureIncident(
  deps: { db: Kysely<DB>; storage: Storage },
  scope: Scope,
  user: UserForRole & { id: number; nome: string },
  inspectionId: number,
  itemId: number,
  input: FailureInput,
  now: Date,
) {
  const { db, storage } = deps;
  const inspection = await readInspection(db, scope, inspectionId);
  const answer = inspection.respostas.find((row) => row.item_id === itemId);
  if (!answer) throw notFound(T.itemNotFound);
  if (answer.resposta !== "nao_conforme") throw new ApiError(400, T.failureOnly);
  // Checked again under the lock below; here so a second click copies no photo.
  if (answer.incident_id !== null) throw new ApiError(409, T.failureHasIncident);
  if (input.corrective) {
    if (!can(user, "handleIncidents")) throw new ApiError(403, T.correctiveNotAllowed);
    // Checked before the incident is written: a wrong ASG or hour writes nothing.
    await checkedCorrective(db, scope, inspection.branch_id, input.corrective, now);
  }
  const kind = input.kindId
    ? await db
        .selectFrom("incident_kinds")
        .select(["id", "prazo_minutos", "ativo"])
        .where("id", "=", input.kindId)
        .where("company_id", "=", scope.companyId)
        .executeTakeFirst()
    : undefined;
  // Another company's kind is 404, as every id out of scope; none chosen, or one switched off, is a wrong choice.
  if (input.kindId && !kind) throw notFound(T.kindNotFound);
  if (!kind?.ativo) throw new ApiError(400, T.kindRequired, { tipoId: [T.kindRequired] });
  // The item's first photo goes with the incident, as a visitor's would: the incident pages show their own folder.
  const first = answer.fotos[0];
  const bytes = first ? await storage.read(INSPECTION_PHOTO_FOLDER, first) : null;
  const descricao =
    `Inspeção nº ${inspection.id}: ${answer.texto}${answer.observacao ? ` — ${answer.observacao}` : ""}`.slice(0, 500);
  // The copy is saved in the write that names it and removed if that write fails (writeNamingFiles, docs/storage.md
  // 'Orphan files').
  const incidentId = await writeNamingFiles(deps, INCIDENT_PHOTO_FOLDER, (save) =>
    db.transaction().execute(async (trx) => {
      // The answer row is locked, so two clicks open one incident.
      const locked = await trx
        .selectFrom("inspection_answers")
        .select("incident_id")
        .where("inspection_id", "=", inspection.id)
        .where("item_id", "=", itemId)
        .forUpdate()
        .executeTakeFirstOrThrow();
      if (locked.incident_id !== null) throw new ApiError(409, T.failureHasIncident);
      // Saved once the lock is held and the item is still free, so a second click copies nothing.
      const foto = bytes ? await save(bytes) : null;
      const incident = await insertIncident(
        trx,
        {
          room: { id: inspection.environment_id, company_id: scope.companyId, branch_id: inspection.branch_id },
          kind,
          descricao,
          foto,
          now,
        },
        { userId: user.id, detalhe: `Aberta pela inspeção nº ${inspection.id} (${user.nome})` },
      );
      await trx
        .updateTable("inspection_answers")
        .set({ incident_id: incident.id })
        .where("inspection_id", "=", inspection.id)
        .where("item_id", "=", itemId)
        .execute();
      return incident.id;
    }),
  );
  if (input.corrective) await createCorrective(db, scope, user.id, incidentId, input.corrective, now);
  return { incidentId, environmentId: inspection.environment_id };
}
