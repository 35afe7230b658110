/**
 * `npm run check:rollups` (api/db/check-rollups-cli.ts; docs/operations.md 'The bookings roll-up') as an operator runs
 * it, a child process on an embedded database in DATA_DIR: a roll-up row changed by hand is printed in Portuguese with
 * exit 1; `-- --rebuild ID` writes that company's roll-up again and the check then answers 'Nenhuma diferença.'.
 * On the PostgreSQL run there is no PGlite dump to start from: the test skips itself (the SQL is the property test's).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { afterAll, beforeAll, expect, test } from "vitest";

import { openDatabase } from "../../api/db/connection.ts";
import { writeTestDatabase } from "../support/db.ts";
import { demoIds, userByEmail } from "../support/demo.ts";
import { otherTenantBooking } from "../support/execution.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const dataDir = mkdtempSync(path.join(tmpdir(), "check-rollups-"));
let embedded = false;
/** The other tenant's one booking and its roll-up row, as the command should name it. */
let company = 0;
let line = "";

function checkRollups(args: string[] = []) {
  const { DATABASE_URL: _postgres, ...inherited } = process.env;
  const child = spawn("npm", ["run", "--silent", "check:rollups", "--", ...args], {
    cwd: root,
    env: { ...inherited, DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  return new Promise<{ code: number | null; lines: string[] }>((resolve) =>
    child.on("exit", (code) => resolve({ code, lines: output.trim().split("\n") })),
  );
}

beforeAll(async () => {
  embedded = await writeTestDatabase(dataDir);
  if (!embedded) return;
  const database = await openDatabase({ dataDir });
  try {
    const ids = await demoIds(database.db);
    company = ids.other;
    await otherTenantBooking(database.db, ids, (await userByEmail(database.db, "outra@demo.com.br")).id);
    // The count changed by hand, as a wrong roll-up would hold it: 3 where the rows say 1.
    const row = await database.db
      .updateTable("booking_days")
      .set({ agendamentos: 3 })
      .where("company_id", "=", company)
      .returningAll()
      .executeTakeFirstOrThrow();
    line =
      `empresa ${row.company_id}, filial ${row.branch_id}, dia ${row.dia}, colaborador ${row.user_id}, ` +
      `ambiente ${row.environment_id}, agenda ${row.agenda_id}: agendamentos 3 no resumo, 1 nos agendamentos`;
  } finally {
    await database.close();
  }
}, 60_000);

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

test("a wrong row: printed with exit 1; --rebuild of its company mends it, exit 0", async (context) => {
  if (!embedded) context.skip();
  const check = await checkRollups();
  expect(check.code, check.lines.join("\n")).toBe(1);
  expect(check.lines).toEqual([
    line,
    `1 diferença(s), empresa(s) ${company}. Para refazer: npm run check:rollups -- --rebuild ${company}`,
  ]);

  const rebuilt = await checkRollups(["--rebuild", String(company)]);
  expect(rebuilt.code, rebuilt.lines.join("\n")).toBe(0);
  expect(rebuilt.lines).toEqual([`Resumo da empresa ${company} refeito: 1 linha(s).`, "Nenhuma diferença."]);

  const bad = await checkRollups(["--rebuild", "x"]);
  expect(bad.code).toBe(1);
  expect(bad.lines[0]).toBe("--rebuild espera o id (número) de uma empresa.");
}, 120_000);
