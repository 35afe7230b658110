/**
 * `npm run create-owner`: the first account of a new installation. With NODE_ENV=production nothing is seeded and
 * sign-up needs a CPF an administrator pre-registered, so someone has to exist first: this writes the main company, its
 * audit boards and its Administrador (P) (roleId 1, the master CPF), checked by the same schema as POST /empresas.
 *
 * Every value comes from a flag or, on a terminal, a prompt. The password never travels as a flag (shell histories and
 * `ps` would keep it): it is typed at a prompt that does not echo, or read from standard input with --password-stdin.
 */
import path from "node:path";
import { createInterface } from "node:readline/promises";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

import { hashPassword } from "../auth/password.ts";
import { ApiError } from "../lib/errors.ts";
import { CompanyCreateBody } from "../routes/companies.ts";
import { createFirstOwner } from "../services/companies.ts";

import { openDatabase, type Database } from "./connection.ts";
import { migrate } from "./migrate.ts";
import { loadToolConfig, refuseLiveEmbeddedDatabase, runTool } from "./ops-support.ts";

/** Each flag, the payload field it fills (as POST /empresas names it) and the prompt a terminal shows for it. */
const FIELDS = [
  { flag: "company", field: "nome", prompt: "Nome da empresa principal" },
  { flag: "cnpj", field: "cnpj", prompt: "CNPJ" },
  { flag: "address", field: "endereco", prompt: "Endereço" },
  { flag: "number", field: "numero", prompt: "Número" },
  { flag: "district", field: "bairro", prompt: "Bairro" },
  { flag: "city", field: "cidade", prompt: "Cidade" },
  { flag: "name", field: "userAdmin.nome", prompt: "Nome do Administrador (P)" },
  { flag: "email", field: "userAdmin.email", prompt: "E-mail" },
  { flag: "cpf", field: "userAdmin.cpf", prompt: "CPF" },
  { flag: "birth-date", field: "userAdmin.dataNascimento", prompt: "Data de nascimento (DD/MM/AAAA)" },
  { flag: "phone", field: "userAdmin.telefone", prompt: "Telefone" },
] as const;

/** The spec's eight: 9 (the inspections' chart) is opt-in, as on the register form (api/domain/audit.ts). */
const ALL_BOARDS = "1,2,3,4,5,6,7,8";

export const USAGE = `Usage: npm run create-owner -- [flags]

Creates the main company, its audit boards and its Administrador (P) on a database that has no company yet
(DATABASE_URL, or the embedded one in DATA_DIR). Missing values are asked for when run on a terminal.

  ${FIELDS.map((entry) => `--${entry.flag.padEnd(12)} ${entry.prompt}`).join("\n  ")}
  --boards       the audit boards to enable, 1 to 9 (default ${ALL_BOARDS}; 9, inspections, is opt-in)
  --max-users    the user limit (default 50)
  --password-stdin  read the password from standard input (first line) instead of a prompt`;

export type OwnerIo = {
  /** Asks for a value on a terminal; null when there is no terminal to ask on. */
  ask: ((prompt: string) => Promise<string>) | null;
  /** The password: typed without echo, or the first line of standard input. */
  password: () => Promise<string>;
  out: (line: string) => void;
};

/** Parses the flags, asks for what is missing, validates like the web form and writes. Answers the exit code. */
export async function createOwner(database: Database, argv: string[], io: OwnerIo): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        ...Object.fromEntries(FIELDS.map((entry) => [entry.flag, { type: "string" as const }])),
        boards: { type: "string", default: ALL_BOARDS },
        "max-users": { type: "string" },
        "password-stdin": { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
    }));
  } catch (error) {
    io.out(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  const given: Record<string, string> = {};
  for (const entry of FIELDS) {
    let value = values[entry.flag] as string | undefined;
    if (value === undefined && io.ask) value = await io.ask(entry.prompt);
    if (value === undefined) {
      io.out(`Missing --${entry.flag} (${entry.prompt}); run on a terminal to be asked.\n\n${USAGE}`);
      return 2;
    }
    given[entry.field] = value;
  }
  const password = await io.password();
  const payload = {
    ...Object.fromEntries(FIELDS.filter((e) => !e.field.includes(".")).map((e) => [e.field, given[e.field]])),
    quadroIds: String(values.boards).split(","),
    max_number_users: values["max-users"],
    userAdmin: {
      ...Object.fromEntries(
        FIELDS.filter((e) => e.field.startsWith("userAdmin.")).map((e) => [e.field.slice(10), given[e.field]]),
      ),
      password,
    },
  };
  const parsed = CompanyCreateBody.safeParse(payload);
  if (!parsed.success) {
    io.out("Nothing was written. Fix these values:");
    for (const issue of parsed.error.issues) io.out(`  ${flagOf(issue.path.join("."))}: ${issue.message}`);
    return 1;
  }
  const { userAdmin, ...company } = parsed.data;
  try {
    const { companyId } = await createFirstOwner(database.db, {
      ...company,
      userAdmin: { ...userAdmin, passwordHash: await hashPassword(userAdmin.password) },
    });
    io.out(
      `Created the main company '${company.nome}' (id ${companyId}) and its Administrador (P) ${userAdmin.email}. ` +
        "Sign in with that e-mail and the password you chose.",
    );
    return 0;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    io.out(`Nothing was written. ${error.message}`);
    for (const [field, messages] of Object.entries(error.fieldErrors ?? {})) {
      io.out(`  ${flagOf(field)}: ${messages.join(" ")}`);
    }
    return 1;
  }
}

/** A payload path ('userAdmin.cpf', 'quadroIds.0') as the flag the operator typed. */
function flagOf(path: string) {
  if (path.startsWith("quadroIds")) return "--boards";
  if (path === "max_number_users") return "--max-users";
  if (path === "userAdmin.password") return "password";
  const entry = FIELDS.find((candidate) => candidate.field === path);
  return entry ? `--${entry.flag}` : path;
}

/** The terminal's prompts; the password's keystrokes are not echoed. */
function terminalIo(passwordFromStdin: boolean): OwnerIo & { close(): void } {
  const out = (line: string) => console.log(line);
  if (passwordFromStdin || !process.stdin.isTTY) {
    return {
      ask: null,
      out,
      close() {},
      password: async () => {
        if (!passwordFromStdin) throw new UsageError("No terminal to ask on: give the password with --password-stdin.");
        let text = "";
        for await (const chunk of process.stdin) text += chunk;
        return text.split(/\r?\n/)[0] ?? "";
      },
    };
  }
  let muted = false;
  const output = new Writable({
    write(chunk, encoding, done) {
      if (!muted) process.stdout.write(chunk, encoding);
      done();
    },
  });
  const lines = createInterface({ input: process.stdin, output, terminal: true });
  const hidden = async (prompt: string) => {
    process.stdout.write(`${prompt}: `);
    muted = true;
    const answer = await lines.question("");
    muted = false;
    process.stdout.write("\n");
    return answer;
  };
  return {
    ask: (prompt) => lines.question(`${prompt}: `),
    out,
    close: () => lines.close(),
    password: async () => {
      for (;;) {
        const first = await hidden("Senha");
        if (first === (await hidden("Confirme a senha"))) return first;
        out("As senhas não coincidem. Digite de novo.");
      }
    },
  };
}

class UsageError extends Error {}

async function main(): Promise<number> {
  const argv = process.argv.slice(2).filter((arg) => arg !== "--");
  // --help touches nothing: no configuration read, no database opened.
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(USAGE);
    return 0;
  }
  // The tools' configuration: writes no DATA_DIR/session-secret (the server makes or is given its own).
  const config = loadToolConfig();
  // A second process on a live PGlite directory corrupts it: stop the server first (it takes a few seconds).
  await refuseLiveEmbeddedDatabase(config, "create-owner");
  const database = await openDatabase(
    config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir },
  );
  // Made after the checks: a terminal's prompt keeps standard input open, so a refusal would otherwise hang.
  const io = terminalIo(argv.includes("--password-stdin"));
  try {
    await migrate(database);
    return await createOwner(database, argv, io);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(error.message);
    return 2;
  } finally {
    io.close();
    await database.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) runTool(main);
