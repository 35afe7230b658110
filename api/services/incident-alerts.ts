import type { Kysely, Transaction } from "kysely";
import type { Logger } from "pino";

import type { DB } from "../db/schema.ts";
import { incidentAlertMail } from "../domain/incidents.ts";

import { deadlineText } from "./incident-handling.ts";
import type { Mailer } from "./mailer.ts";

/**
 * The incident e-mails (issue 28 §6, docs/incidents.md 'Alerts'): to the owners when an incident opens and when its
 * deadline passes unresolved. The incident_alerts table is the queue, written in the transaction that opens the
 * incident or moves its deadline. Every instance's minute sweep (server.ts) claims due rows with FOR UPDATE SKIP LOCKED
 * and a lease, sends outside the transaction (an SMTP server may be slow; PGlite has one connection), then marks them
 * done: with several instances on one database each alert goes once, and one whose sender died goes after a restart
 * when its lease runs out.
 */

/** How long a claimed alert is left to its sender before another instance may take it. */
const LEASE_MINUTES = 5;
/** Alerts sent per sweep: a backlog drains over a few minutes instead of stalling one sweep. */
export const ALERTS_PER_SWEEP = 50;

/** Queues an incident's two alerts: 'aberta' due now, 'atrasada' due at its deadline. */
export async function scheduleIncidentAlerts(trx: Transaction<DB>, incidentId: number, now: Date, deadline: Date) {
  await trx
    .insertInto("incident_alerts")
    .values([
      { incident_id: incidentId, tipo: "aberta", due_at: now },
      { incident_id: incidentId, tipo: "atrasada", due_at: deadline },
    ])
    .execute();
}

/** A new deadline: the overdue alert is due at it, again if it had been sent for the old one. */
export async function moveOverdueAlert(trx: Transaction<DB>, incidentId: number, deadline: Date) {
  await trx
    .updateTable("incident_alerts")
    .set({ due_at: deadline, done_at: null, claimed_until: null })
    .where("incident_id", "=", incidentId)
    .where("tipo", "=", "atrasada")
    .execute();
}

/** `publicUrl`: the absolute origin of the e-mailed links (api/lib/http-guards.ts `serverOrigin`); there is no request. */
type AlertDeps = { db: Kysely<DB>; mailer: Mailer; publicUrl: string; logger?: Logger };

/** Claims the due alerts not claimed by a live sender: each row goes to one caller only. */
async function claimDueAlerts(db: Kysely<DB>, now: Date) {
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom("incident_alerts")
      .select(["id", "incident_id", "tipo"])
      .where("done_at", "is", null)
      .where("due_at", "<=", now)
      .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<", now)]))
      .orderBy("due_at")
      .limit(ALERTS_PER_SWEEP)
      .forUpdate()
      .skipLocked()
      .execute();
    // The lease is also this sweep's mark: a row re-claimed or rescheduled meanwhile no longer carries it.
    const lease = new Date(now.getTime() + LEASE_MINUTES * 60_000);
    if (due.length) {
      await trx
        .updateTable("incident_alerts")
        .set({ claimed_until: lease })
        .where(
          "id",
          "in",
          due.map((row) => row.id),
        )
        .execute();
    }
    return { due, lease };
  });
}

/** Who is told: the incident's owner, else its branch's coordinators, else the company's administrators. */
async function recipients(
  db: Kysely<DB>,
  incident: { owner_id: number | null; branch_id: number; company_id: number },
) {
  const active = db.selectFrom("users").select("email").where("ativo", "=", 1).where("email", "!=", "");
  if (incident.owner_id !== null) {
    const owner = await active.where("id", "=", incident.owner_id).execute();
    if (owner.length) return owner.map((row) => row.email);
  }
  const coordinators = await active
    .where("branch_id", "=", incident.branch_id)
    .where("role_id", "=", 3)
    .limit(20)
    .execute();
  if (coordinators.length) return coordinators.map((row) => row.email);
  const admins = await active
    .where("company_id", "=", incident.company_id)
    .where("role_id", "in", [1, 2])
    .limit(20)
    .execute();
  return admins.map((row) => row.email);
}

/**
 * One sweep: sends every due alert this instance claims and marks it done. An alert of an incident closed before it
 * was due is marked done without a message. A failed send leaves the row to be claimed again when its lease ends.
 */
export async function sendDueAlerts(deps: AlertDeps, now: Date) {
  const { db } = deps;
  const { due: claimed, lease } = await claimDueAlerts(db, now);
  let sent = 0;
  for (const alert of claimed) {
    try {
      const incident = await db
        .selectFrom("incidents as i")
        .innerJoin("environments as e", "e.id", "i.environment_id")
        .innerJoin("branches as b", "b.id", "i.branch_id")
        .innerJoin("incident_kinds as k", "k.id", "i.kind_id")
        .select([
          "i.id",
          "i.status",
          "i.owner_id",
          "i.branch_id",
          "i.company_id",
          "i.descricao",
          "i.created_at",
          "i.prazo_at",
          "e.name as ambiente",
          "b.nome as filial",
          "k.nome as tipo",
        ])
        .where("i.id", "=", alert.incident_id)
        .executeTakeFirstOrThrow();
      const stillDue =
        (incident.status === "aberta" || incident.status === "em_atendimento") &&
        (alert.tipo === "aberta" || incident.prazo_at <= now);
      const to = stillDue ? await recipients(db, incident) : [];
      if (to.length) {
        const mail = incidentAlertMail(alert.tipo, {
          id: incident.id,
          tipo: incident.tipo,
          ambiente: incident.ambiente,
          filial: incident.filial,
          descricao: incident.descricao,
          relatadaEm: deadlineText(incident.created_at),
          prazo: deadlineText(incident.prazo_at),
          link: `${deps.publicUrl}/ocorrencias/${incident.id}`,
        });
        for (const address of to) await deps.mailer.send({ to: address, ...mail });
      }
      await db.transaction().execute(async (trx) => {
        // Only while this sweep still holds it: a deadline moved meanwhile (claimed_until reset) keeps its alert due.
        const done = await trx
          .updateTable("incident_alerts")
          .set({ done_at: now })
          .where("id", "=", alert.id)
          .where("claimed_until", "=", lease)
          .executeTakeFirst();
        if (done.numUpdatedRows === 0n) return;
        if (to.length) {
          await trx
            .insertInto("incident_events")
            .values({
              incident_id: incident.id,
              tipo: "alerta_enviado",
              detalhe:
                `${alert.tipo === "aberta" ? "Aviso de nova ocorrência" : "Aviso de prazo vencido"} para ${to.join(", ")}`.slice(
                  0,
                  1000,
                ),
              created_at: now,
            })
            .execute();
        }
      });
      if (to.length) sent += 1;
    } catch (error) {
      deps.logger?.warn({ err: error, alert: alert.id }, "incident alert not sent; retried when its lease ends");
    }
  }
  return { claimed: claimed.length, sent };
}
