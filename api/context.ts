import type { Logger } from "pino";

import type { Scope } from "./auth/scope.ts";
import type { UserRow } from "./auth/users.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/connection.ts";
import type { Sessions } from "./db/schema.ts";
import type { PageChanges } from "./lib/public-cache.ts";
import type { Mailer } from "./services/mailer.ts";
import type { Storage } from "./services/storage.ts";

/** What the API needs from the process: built once in server.ts (or by a test) and handed to createApi. */
export type ApiDeps = {
  database: Database;
  config: Pick<Config, "publicUrl" | "env"> & Partial<Pick<Config, "bodyLimit" | "uploadLimit" | "sessionSecret">>;
  mailer: Mailer;
  storage: Storage;
  logger: Logger;
  /** Tells the public page cache that a page changed (server.ts; absent in tests that run the API alone). */
  pages?: PageChanges;
  /** The process's export runner, told when a job is queued (server.ts; absent: the job waits for a runner's poll). */
  exports?: { kick(): void };
};

export type AuthUser = {
  id: number;
  nome: string;
  email: string;
  cpf: string;
  telefone: string;
  dataNascimento: string | null;
  avatar: string | null;
  roleId: number | null;
  coordenador: number | null;
  ativo: number;
  companyId: number;
  branchId: number | null;
  filialClientId: number | null;
};

/** painel: the back office's session; campo: the field app's (docs/field-app.md 'Who, and where'). */
export type SessionKind = Sessions["kind"];

export type ApiEnv = {
  Variables: {
    user: AuthUser;
    scope: Scope;
    tokenHash: string;
    /** When the bearer token was issued (the contract's dataHoraToken). */
    sessionCreatedAt: Date;
    /** A field session ('campo') may make only the field calls (api/auth/middleware.ts FIELD_CALLS). */
    sessionKind: SessionKind;
    /** The signed-in user's row as read with the token (answers can reuse it without a second query). */
    userRow: UserRow;
  };
};
