/** `npm run seed`: wipes the database named by the configuration and writes the demo data again. */
import { loadConfig } from "../config.ts";

import { openDatabase } from "./connection.ts";
import { migrate } from "./migrate.ts";
import { refuseLiveEmbeddedDatabase } from "./ops-support.ts";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, resetDatabase, seedDemo } from "./seed.ts";

const config = loadConfig();
await refuseLiveEmbeddedDatabase(config, "npm run seed").catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
const database = await openDatabase(
  config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir },
);
await migrate(database);
await resetDatabase(database);
const simulated = await seedDemo(database);
await database.close();
if (simulated) {
  console.log(
    `Demo simulator: ${simulated.agendas} agendas, ${simulated.bookings} bookings, ${simulated.completed} complete ` +
      `(${simulated.late} late), ${simulated.incomplete} incomplete, ${simulated.history} procedures done, ` +
      `${simulated.photos} photos, in ${(simulated.ms / 1000).toFixed(1)} s.`,
  );
}
console.log(`Demo data written. Sign in with any of these, password ${DEMO_PASSWORD}:`);
for (const account of DEMO_ACCOUNTS) console.log(`  ${account.email.padEnd(26)} ${account.nivel}`);
