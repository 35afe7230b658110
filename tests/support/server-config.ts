import { loadConfig } from "../../api/config.ts";

/**
 * The configuration of a whole server started inside a test (server.ts's startServer): a free port on loopback, no
 * logs, the demo data, in this data directory; `settings` add or override environment variables.
 */
export function testServerConfig(dataDir: string, settings: Record<string, string> = {}) {
  return loadConfig({
    DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "silent",
    NODE_ENV: "test",
    DEMO_DATA: "true",
    ...settings,
  } as unknown as NodeJS.ProcessEnv);
}
