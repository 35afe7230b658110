import { sql } from "kysely";

import { hashPassword } from "../auth/password.ts";
import type { Scope } from "../auth/scope.ts";
import { loadConfig } from "../config.ts";
import { CATALOGUES as CATALOGUE_DEFINITIONS } from "../domain/catalogues.ts";
import { importCatalogueRows } from "../services/catalogues.ts";
import { createEnvironment } from "../services/environments.ts";
import { createStorage, type Storage } from "../services/storage.ts";

import type { Database } from "./connection.ts";
import { seedDemoIncidents } from "./demo-incidents.ts";
import { seedDemoInspections } from "./demo-inspections.ts";
import { seedLegacyDemo } from "./demo-legacy.ts";
import { simulateDemoHistory, type SimulationResult } from "./demo-simulator.ts";

/**
 * Demo data (DESIGN.md 'Data'): a main company with branches, catalogues, environments and one user per role,
 * plus a second, separate main company so tenant isolation can be seen. Every demo account uses DEMO_PASSWORD.
 * Catalogue items and environments go through their services (the same rules as the API); the rest is plain SQL
 * until those domains have services of their own.
 */
export const DEMO_PASSWORD = "demo1234";

export const DEMO_ACCOUNTS = [
  { email: "principal@demo.com.br", roleId: 1, nivel: "Administrador (P)" },
  { email: "admin@demo.com.br", roleId: 2, nivel: "Administrador" },
  { email: "coordenador@demo.com.br", roleId: 3, nivel: "Coordenador (filial Aldeota)" },
  { email: "auditor@demo.com.br", roleId: 4, nivel: "Auditor" },
  { email: "asg@demo.com.br", roleId: 5, nivel: "ASG (acesso web bloqueado)" },
  { email: "cliente@demo.com.br", roleId: 7, nivel: "Cliente (filial Aldeota)" },
  { email: "semnivel@demo.com.br", roleId: null, nivel: "Sem nível (filial Aldeota)" },
  { email: "outra@demo.com.br", roleId: 2, nivel: "Administrador de outra empresa" },
] as const;

/** Demo users' other names (e-mail, name). */
const DEMO_NICKNAMES = [
  ["principal@demo.com.br", "Paulinha"],
  ["admin@demo.com.br", "Tonho"],
  ["coordenador@demo.com.br", "Carlinha"],
  ["asg@demo.com.br", "Seu Sebastião"],
  ["bruno@demo.com.br", "Bruninho"],
  ["outra@demo.com.br", "Tavinho"],
] as const;

/** CPFs that are pre-registered but not yet used, so sign-up can be tried (valid check digits). */
export const DEMO_FREE_CPFS = { asg: "86218868800", coordenador: "52615378007", admin: "11544208170" };

const CATALOGUES = {
  sectors: ["Recepção", "Centro Cirúrgico", "UTI", "Administrativo", "Ambulatório", "Copa e Cozinha"],
  categories: ["Banheiro", "Sala", "Corredor", "Enfermaria", "Copa", "Escritório"],
  procedures: [
    "Limpar piso",
    "Recolher lixo",
    "Higienizar pias",
    "Limpar vidros",
    "Desinfetar superfícies",
    "Repor papel toalha",
    "Repor sabonete",
    "Limpar vaso sanitário",
  ],
  risks: [
    ["Biológico", "#c62828"],
    ["Químico", "#f9a825"],
    ["Físico", "#1565c0"],
    ["Ergonômico", "#2e7d32"],
    ["Perfurocortante", "#6a1b9a"],
  ] as [string, string][],
};

const ENVIRONMENTS: [name: string, andar: string, category: string, sector: string][] = [
  ["Recepção principal", "Térreo", "Sala", "Recepção"],
  ["Banheiro masculino térreo", "Térreo", "Banheiro", "Recepção"],
  ["Banheiro feminino térreo", "Térreo", "Banheiro", "Recepção"],
  ["Corredor A", "1º andar", "Corredor", "Ambulatório"],
  ["Enfermaria 101", "1º andar", "Enfermaria", "Ambulatório"],
  ["Enfermaria 102", "1º andar", "Enfermaria", "Ambulatório"],
  ["Sala de cirurgia 1", "2º andar", "Sala", "Centro Cirúrgico"],
  ["UTI adulto", "3º andar", "Enfermaria", "UTI"],
  ["Copa dos funcionários", "Térreo", "Copa", "Copa e Cozinha"],
  ["Diretoria", "4º andar", "Escritório", "Administrativo"],
];

/** The second tenant's catalogue names (each is a sector, a category and a procedure) and environments. */
const OTHER_NAMES = ["Área externa", "Escritório central"];
const OTHER_ENVIRONMENTS: [name: string, andar: string, place: string][] = [
  ["Portaria", "Térreo", "Área externa"],
  ["Sala de reuniões", "1º andar", "Escritório central"],
];

type Ids = Record<string, number>;

/** The catalogues without a colour, in the order the demo writes them (serial ids follow it). */
const PLAIN_CATALOGUES = [
  ["setores", "sectors"],
  ["categorias", "categories"],
  ["procedimentos", "procedures"],
] as const;

/** Names as the catalogue import takes them (line numbers as in a CSV file under its header). */
const asRows = (names: string[]) => names.map((name, index) => ({ line: index + 2, name }));

export async function resetDatabase(database: Database) {
  const tables = await sql<{ tablename: string }>`
    select tablename from pg_tables where schemaname = current_schema() and tablename not in ('schema_migrations', 'boards')`.execute(
    database.db,
  );
  if (tables.rows.length) {
    await database.execScript(
      `truncate ${tables.rows.map((row) => `"${row.tablename}"`).join(", ")} restart identity cascade`,
    );
  }
}

export async function isEmpty(database: Database) {
  const row = await database.db.selectFrom("companies").select("id").limit(1).executeTakeFirst();
  return !row;
}

export type SeedOptions = {
  /**
   * The demo simulator's agendas and ~90 days of executions (api/db/demo-simulator.ts): on by default (`npm start`,
   * `npm run seed`); the API tests' database leaves them out (tests/support/db.ts): their counts start from no agenda.
   */
  history?: boolean;
  /** Where the simulated photos go; by default the server's (DATA_DIR/uploads, as server.ts). */
  storage?: Storage;
  /** The simulation's 'now' (tests fix it). */
  now?: Date;
};

export async function seedDemo(database: Database, options: SeedOptions = {}): Promise<SimulationResult | undefined> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await database.db.transaction().execute(async (trx) => {
    const insertCompany = async (nome: string, cnpj: string, cidade: string, boards: number[]) => {
      const { id } = await trx
        .insertInto("companies")
        .values({ nome, cnpj, endereco: "Av. Santos Dumont", numero: "1500", bairro: "Aldeota", cidade })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx
        .insertInto("company_boards")
        .values(boards.map((board_id) => ({ company_id: id, board_id })))
        .execute();
      return id;
    };
    const insertBranch = async (company_id: number, nome: string, cnpj: string, ativo = true) =>
      (
        await trx
          .insertInto("branches")
          .values({
            company_id,
            nome,
            cnpj,
            endereco: "Rua Barão de Studart",
            numero: String(100 + cnpj.charCodeAt(3)),
            ativo,
          })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;

    // The demo tenant.
    const company = await insertCompany("Hospital Boa Saúde", "95961066080247", "Fortaleza", [1, 2, 3, 4, 5, 6, 7, 8]);
    const branches: Ids = {
      Matriz: await insertBranch(company, "Matriz Fortaleza", "65252529719223"),
      Aldeota: await insertBranch(company, "Filial Aldeota", "63455355474731"),
      Messejana: await insertBranch(company, "Filial Messejana", "45693002606104"),
    };
    await insertBranch(company, "Filial Caucaia (desativada)", "44484294021309", false);

    const scope: Scope = { level: "company", companyId: company };
    for (const [branchName, branchId] of Object.entries(branches)) {
      // The smaller branches keep a shorter catalogue, so lists differ between branches.
      const take = <T>(items: T[]) => (branchName === "Messejana" ? items.slice(0, 4) : items);
      const ids: Record<string, Ids> = { sectors: {}, categories: {}, procedures: {}, risks: {} };
      for (const [kind, table] of PLAIN_CATALOGUES) {
        const rows = await importCatalogueRows(
          trx,
          CATALOGUE_DEFINITIONS[kind],
          scope,
          branchId,
          asRows(take(CATALOGUES[table])),
        );
        for (const row of rows) ids[table][row.name] = row.id;
      }
      const risks = await importCatalogueRows(
        trx,
        CATALOGUE_DEFINITIONS.riscos,
        scope,
        branchId,
        take(CATALOGUES.risks).map(([name, color], index) => ({ line: index + 2, name, color })),
      );
      for (const row of risks) ids.risks[row.name] = row.id;

      const procedureIds = Object.values(ids.procedures);
      const riskIds = Object.values(ids.risks);
      for (const [index, [name, andar, category, sector]] of ENVIRONMENTS.entries()) {
        if (!ids.categories[category] || !ids.sectors[sector]) continue;
        // Two risks each; three procedures in four (a different few left out each time), one in three of them
        // optional, so searches and sorts by risk and procedure tell environments apart.
        const chosen = procedureIds.filter((_, p) => (p + index) % 4 !== 0);
        await createEnvironment(trx, scope, {
          branchId,
          name,
          andar,
          categoriaId: ids.categories[category],
          setorId: ids.sectors[sector],
          riscos: [riskIds[index % riskIds.length], riskIds[(index + 1) % riskIds.length]],
          procedures: chosen.filter((_, k) => k % 3 !== 2),
          proceduresNotMandatory: chosen.filter((_, k) => k % 3 === 2),
        });
      }
    }

    const insertUser = async (user: {
      email: string;
      nome: string;
      cpf: string;
      role_id: number | null;
      company_id: number;
      branch_id?: number | null;
      filial_client_id?: number | null;
      coordenador?: number | null;
      telefone?: string;
      data_nascimento?: string;
    }) =>
      (
        await trx
          .insertInto("users")
          .values({
            telefone: "85988887777",
            data_nascimento: "1985-04-12",
            ...user,
            password_hash: passwordHash,
          })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;

    await insertUser({
      email: "principal@demo.com.br",
      nome: "Paula Principal",
      cpf: "19474741468",
      role_id: 1,
      company_id: company,
    });
    await insertUser({
      email: "admin@demo.com.br",
      nome: "Antônio Administrador",
      cpf: "98393704561",
      role_id: 2,
      company_id: company,
    });
    await insertUser({
      email: "coordenador@demo.com.br",
      nome: "Carla Coordenadora",
      cpf: "01115228110",
      role_id: 3,
      coordenador: 1,
      company_id: company,
      branch_id: branches.Aldeota,
    });
    await insertUser({
      email: "auditor@demo.com.br",
      nome: "Augusto Auditor",
      cpf: "34200525100",
      role_id: 4,
      company_id: company,
    });
    const asgNames = ["Ana Souza", "Bruno Lima", "Cícero Alves", "Débora Nunes"];
    await insertUser({
      email: "asg@demo.com.br",
      nome: "Sebastião ASG",
      cpf: "40745185460",
      role_id: 5,
      company_id: company,
      branch_id: branches.Aldeota,
    });
    const extraCpfs = ["89541401902", "27677760309", "86366710279", "80454057164"];
    for (const [index, nome] of asgNames.entries()) {
      await insertUser({
        email: `${nome
          .split(" ")[0]
          .toLowerCase()
          .normalize("NFD")
          .replace(/[^a-z]/g, "")}@demo.com.br`,
        nome,
        cpf: extraCpfs[index],
        role_id: 5,
        company_id: company,
        branch_id: index % 2 ? branches.Messejana : branches.Aldeota,
      });
    }
    await insertUser({
      email: "cliente@demo.com.br",
      nome: "Clínica Cliente",
      cpf: "17370887464",
      role_id: 7,
      company_id: company,
      filial_client_id: branches.Aldeota,
    });
    await insertUser({
      email: "semnivel@demo.com.br",
      nome: "Sérgio Sem Nível",
      cpf: "62215781408",
      role_id: null,
      company_id: company,
      branch_id: branches.Aldeota,
    });
    await trx.insertInto("master_cpfs").values({ cpf: "19474741468", company_id: company }).execute();
    await trx
      .insertInto("pre_registered_cpfs")
      .values([
        { company_id: company, branch_id: branches.Aldeota, cpf: DEMO_FREE_CPFS.asg, role_id: 5 },
        { company_id: company, branch_id: branches.Aldeota, cpf: DEMO_FREE_CPFS.coordenador, role_id: 3 },
        { company_id: company, branch_id: branches.Matriz, cpf: DEMO_FREE_CPFS.admin, role_id: 2 },
        { company_id: company, branch_id: branches.Messejana, cpf: "86675087215", role_id: 5, ativo: false },
      ])
      .execute();

    // A second tenant: nothing of it may ever show to the first.
    const other = await insertCompany("Limpa Bem Serviços", "72079477424314", "Recife", [1, 2, 8]);
    const otherBranch = await insertBranch(other, "Sede Recife", "43767442343027");
    await insertBranch(other, "Filial Olinda", "69999351021313");
    await insertUser({
      email: "outra@demo.com.br",
      nome: "Otávio Outra Empresa",
      cpf: "15191282744",
      role_id: 2,
      company_id: other,
    });
    await trx.insertInto("master_cpfs").values({ cpf: "15191282744", company_id: other }).execute();
    // Other names people are known by ('Nomes do Usuário').
    for (const [email, name] of DEMO_NICKNAMES) {
      const { id } = await trx.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
      await trx.insertInto("user_names").values({ user_id: id, name }).execute();
    }
    const otherScope: Scope = { level: "company", companyId: other };
    const otherIds: Record<string, Ids> = {};
    for (const [kind, table] of PLAIN_CATALOGUES) {
      otherIds[table] = Object.fromEntries(
        (await importCatalogueRows(trx, CATALOGUE_DEFINITIONS[kind], otherScope, otherBranch, asRows(OTHER_NAMES))).map(
          (row) => [row.name, row.id],
        ),
      );
    }
    const [noise] = await importCatalogueRows(trx, CATALOGUE_DEFINITIONS.riscos, otherScope, otherBranch, [
      { line: 2, name: "Ruído", color: "#455a64" },
    ]);
    for (const [name, andar, place] of OTHER_ENVIRONMENTS) {
      await createEnvironment(trx, otherScope, {
        branchId: otherBranch,
        name,
        andar,
        categoriaId: otherIds.categories[place],
        setorId: otherIds.sectors[place],
        riscos: [noise.id],
        procedures: [otherIds.procedures[place]],
        proceduresNotMandatory: Object.values(otherIds.procedures).filter((id) => id !== otherIds.procedures[place]),
      });
    }
  });
  await seedDemoIncidents(database.db, options.now ?? new Date());
  await seedDemoInspections(database.db, options.now ?? new Date());
  // PGlite gathers no statistics on its own: the planner's first plans for the new rows need them.
  await sql`analyze`.execute(database.db);
  if (options.history === false) return undefined;
  const simulated = await simulateDemoHistory(database.db, {
    now: options.now ?? new Date(),
    // The configured storage (STORAGE_URL), so `npm run seed` puts the demo photos where the server reads them.
    storage: options.storage ?? (await createStorage(loadConfig())),
  });
  // The old system's rows before August 2022 (docs/legacy-data.md), through the import service.
  await seedLegacyDemo(database.db);
  await sql`analyze`.execute(database.db);
  return simulated;
}
