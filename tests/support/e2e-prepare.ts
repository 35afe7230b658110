/**
 * Run by the browser tests' global setup before the server starts, on a fresh DATA_DIR: migrates, writes the demo
 * data and pre-registers the CPFs of E2E_CPFS, so tests can sign up users of their own (sign-up needs a
 * pre-registered CPF and the product has no other way to add one yet), and writes the history the environment
 * tests need (no screen records executions). Started with tsx, like server.ts.
 */
import { loadConfig } from "../../api/config.ts";
import { openDatabase } from "../../api/db/connection.ts";
import { seedLegacyDemo } from "../../api/db/demo-legacy.ts";
import { migrate } from "../../api/db/migrate.ts";
import { isEmpty, seedDemo } from "../../api/db/seed.ts";

import { E2E_CPFS } from "./e2e-data.ts";
import { writeEnvironmentWithHistory } from "./e2e-history.ts";

const config = loadConfig();
if (config.databaseUrl) throw new Error("e2e-prepare writes to an embedded database only: unset DATABASE_URL");
const database = await openDatabase({ dataDir: config.dataDir });
try {
  await migrate(database);
  // Without the simulated 90 days (api/db/demo-simulator.ts): the browser tests write the agendas they look at, and
  // the simulation would only lengthen every run's set-up.
  if (await isEmpty(database)) {
    await seedDemo(database, { history: false });
    // The demo's old-system rows (Feb-Jul 2022, docs/legacy-data.md), which `history: false` leaves out: the
    // reports' 'Mostrar dados anteriores à Agosto/2022' reads them (tests/e2e/legacy-toggle.spec.ts).
    await seedLegacyDemo(database.db);
  }
  const branch = await database.db
    .selectFrom("branches")
    .innerJoin("companies", "companies.id", "branches.company_id")
    .select(["branches.id as branchId", "companies.id as companyId"])
    .where("companies.nome", "=", "Hospital Boa Saúde")
    .where("branches.nome", "=", "Matriz Fortaleza")
    .executeTakeFirstOrThrow();
  await database.db
    .insertInto("pre_registered_cpfs")
    .values(E2E_CPFS.map((cpf) => ({ company_id: branch.companyId, branch_id: branch.branchId, cpf, role_id: 2 })))
    .execute();
  // An environment with an executed booking: its removal is refused (tests/e2e/environments.spec.ts).
  await writeEnvironmentWithHistory(database);
} finally {
  await database.close();
}
