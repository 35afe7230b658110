/**
 * Issue 28 §6 through the whole process (server.ts): the incident alerts survive a restart. The demo's overdue
 * incident has its alert waiting; the server sends it at start. An alert that falls due while the server is down is
 * sent when it starts again, and the first one is not sent twice. Needs `npm run build` first, as the e2e suite does.
 * On the embedded database, not in the PostgreSQL run (vitest.config.ts PGLITE_RUN_ONLY; its two instances on
 * PostgreSQL are tests/api/incident-loop.test.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, describe, expect, test } from "vitest";

import { openDatabase } from "../../api/db/connection.ts";
import { startServer } from "../../server.ts";
import { writeTestDatabase } from "../support/db.ts";
import { testServerConfig } from "../support/server-config.ts";

const dataDir = mkdtempSync(path.join(tmpdir(), "incident-alerts-"));

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

type Server = Awaited<ReturnType<typeof startServer>>;

/** The overdue e-mails in the outbox, waiting a little for the start-up sweep (it runs beside the first requests). */
async function overdueMails(server: Server, atLeast: number) {
  const read = () =>
    server.database.db
      .selectFrom("outbox")
      .select(["recipient", "subject"])
      .where("subject", "like", "Ocorrência atrasada:%")
      .orderBy("id")
      .execute();
  for (let tries = 0; tries < 50; tries++) {
    const mails = await read();
    if (mails.length >= atLeast) return mails;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return read();
}

describe("the alert e-mails' links without PUBLIC_URL", () => {
  test("are absolute, at the address the development server listens on", async () => {
    const ownDir = mkdtempSync(path.join(tmpdir(), "incident-alerts-links-"));
    try {
      const seeded = await writeTestDatabase(ownDir);
      const server = await startServer(testServerConfig(ownDir, { DEMO_DATA: seeded ? "false" : "true" }));
      try {
        const [mail] = await overdueMails(server, 1);
        const body = await server.database.db
          .selectFrom("outbox")
          .select("body_text")
          .where("subject", "=", mail!.subject)
          .executeTakeFirstOrThrow();
        expect(body.body_text).toMatch(new RegExp(`: http://127\\.0\\.0\\.1:${server.port}/ocorrencias/\\d+`));
        expect(body.body_text).not.toMatch(/: \/ocorrencias\//);
      } finally {
        await server.close();
      }
    } finally {
      rmSync(ownDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("incident alerts across a restart", () => {
  test("sent at start, once; one that fell due while the server was down goes at the next start", async () => {
    const seeded = await writeTestDatabase(dataDir);
    const config = testServerConfig(dataDir, { DEMO_DATA: seeded ? "false" : "true" });
    let server = await startServer(config);
    let second: { id: number; ambiente: string } | undefined;
    try {
      // The demo's 'Falta de papel/sabonete' is past its deadline: its alert goes out at start, to the coordinators.
      const first = await overdueMails(server, 1);
      expect(first.length).toBeGreaterThanOrEqual(1);
      expect(first.every((mail) => mail.subject.startsWith("Ocorrência atrasada: Falta de papel/sabonete"))).toBe(true);
      // Another incident's deadline passes while no server runs.
      const open = await server.database.db
        .selectFrom("incidents as i")
        .innerJoin("environments as e", "e.id", "i.environment_id")
        .select(["i.id", "e.name as ambiente"])
        .where("i.status", "=", "aberta")
        .orderBy("i.id")
        .executeTakeFirstOrThrow();
      second = { id: open.id, ambiente: open.ambiente };
      await server.close();
      const offline = await openDatabase({ dataDir: config.dataDir });
      try {
        await offline.db
          .updateTable("incidents")
          .set({ prazo_at: new Date(Date.now() - 60_000) })
          .where("id", "=", second.id)
          .execute();
        await offline.db
          .updateTable("incident_alerts")
          .set({ due_at: new Date(Date.now() - 60_000) })
          .where("incident_id", "=", second.id)
          .where("tipo", "=", "atrasada")
          .execute();
      } finally {
        await offline.close();
      }
      server = await startServer(config);
      const after = await overdueMails(server, first.length + 1);
      expect(after.slice(0, first.length)).toEqual(first);
      const fresh = after.slice(first.length);
      expect(fresh.length).toBeGreaterThanOrEqual(1);
      expect(fresh.every((mail) => mail.subject === `Ocorrência atrasada: Lixo cheio — ${second!.ambiente}`)).toBe(
        true,
      );
      const timeline = await server.database.db
        .selectFrom("incident_events")
        .select("detalhe")
        .where("incident_id", "=", second.id)
        .where("tipo", "=", "alerta_enviado")
        .execute();
      expect(timeline.map((event) => event.detalhe)).toEqual([expect.stringMatching(/^Aviso de prazo vencido para /)]);
    } finally {
      await server.close();
    }
  }, 120_000);
});
