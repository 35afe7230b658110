/**
 * Tenant isolation, written once for every route (DESIGN.md 'Security and tenancy'): an id outside the caller's
 * scope answers 404 and changes nothing.
 *
 * To cover a new route, add an entry to OTHER_TENANT_ROUTES (ids of another main company) and, when the route is
 * narrowed to a branch for branch-level users, to OTHER_BRANCH_ROUTES. The OpenAPI check below reads every id field
 * of every operation (path, query, body, nested and multipart fields) from GET /api/openapi.json and fails until some
 * entry sends another tenant's id in that field alone, the caller's own ids elsewhere (or NOT_TENANT_SCOPED says why
 * the field holds no tenant's row). A filter or nested id the API does not take from the caller goes to
 * IGNORED_ID_ROUTES instead, with the answer it must give. "Changes nothing" compares every row tied to the other
 * company (OWNER_COLUMNS) before and after.
 */
import { sql, type Kysely } from "kysely";
import { beforeAll, describe, expect, test } from "vitest";

import { resolveBranchFilter, scopeOf } from "../../api/auth/scope.ts";
import { selectUsers, toAuthUser } from "../../api/auth/users.ts";
import type { DB } from "../../api/db/schema.ts";
import { CATALOGUE_KINDS, CATALOGUES } from "../../api/domain/catalogues.ts";
import { businessToday } from "../../api/domain/schedule-expansion.ts";
import { USER_LEVELS } from "../../api/domain/users.ts";
import { ApiError } from "../../api/lib/errors.ts";
import { PHOTO_FOLDER } from "../../api/services/execution.ts";
import { EXPORT_FOLDER } from "../../api/services/export-jobs.ts";
import { createDiskStorage } from "../../api/services/storage.ts";
import { IN_PROCESS_ORIGIN, useTestApi } from "../support/api.ts";
import { cpfWithCheckDigits } from "../support/cpf.ts";
import { branchId, COMPANY_A, COMPANY_B, companyId } from "../support/demo.ts";
import { pngFile, tinyPng } from "../support/files.ts";

/** Ids of one tenant (or one branch of it), looked up from the demo data. */
export type Target = {
  companyId: number;
  /** The branch in question: the first active one of the company unless a branch was named. */
  branchId: number;
  /** A user of that company/branch the caller might try to address. */
  userId: number;
  /** One of that user's other names ('Nomes do Usuário'; the demo data gives every target one). */
  userNameId: number;
  sectorId: number | null;
  riskId: number | null;
  procedureId: number | null;
  categoryId: number | null;
  environmentId: number | null;
  /** An incident of that branch (the demo data gives each company's first rooms some: api/db/demo-incidents.ts). */
  incidentId: number | null;
  /** One of the company's incident kinds (every company has five: migration 015). */
  incidentKindId: number;
  /** The branch's first checklist and a demo inspection of it with a failed item no incident took yet (issue 29). */
  checklistId: number | null;
  inspectionId: number | null;
  inspectionItemId: number | null;
  /** The user's export job (written in beforeAll for every user: docs/exports.md), read by its requester only. */
  exportJobId: number | null;
};

export type ScopedRoute = {
  /** Shown as the test name, e.g. 'PUT /api/users {userId}'. */
  name: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The request path (with query), built from the target's ids; `own` holds the caller's own ids. */
  path: (target: Target, own: Target) => string;
  /** A JSON body, or FormData for multipart. Make it otherwise valid, so only the ids can be the problem. */
  body?: (target: Target, own: Target) => unknown;
  /** The same call with the caller's own ids is expected not to answer 404 (set false when it cannot be tried). */
  control?: boolean;
};

/** Valid CPFs no one has, one per create call, for the users' create routes. */
const INVADER_CPFS = Object.fromEntries(
  USER_LEVELS.map((level, index) => [level.create, cpfWithCheckDigits(String(771_000_100 + index))]),
) as Record<(typeof USER_LEVELS)[number]["create"], string>;

const CATALOGUE_ID = {
  sectors: "sectorId",
  risks: "riskId",
  procedures: "procedureId",
  categories: "categoryId",
} as const;

/** One catalogue item of the target, for paths and bodies (the lookup guarantees the demo data has one). */
function itemOf(target: Target, table: keyof typeof CATALOGUE_ID) {
  const id = target[CATALOGUE_ID[table]];
  if (id === null) throw new Error(`the demo data has no ${table} row in branch ${target.branchId}`);
  return id;
}

function csvUpload(field: string, withColor: boolean, branch: number) {
  const form = new FormData();
  const text = withColor ? "nome;cor\nImportado;#123456\n" : "nome\nImportado\n";
  form.set(field, new File([text], "lista.csv", { type: "text/csv" }));
  form.set("idEmpresaFilial", String(branch));
  return form;
}

/** A CPF file (POST empresas/saveCSVFuncionarios) of one valid CPF for a company and a branch. */
function cpfCsvUpload(company: number, branch: number, cpf: string) {
  const form = new FormData();
  form.set("csv", new File([`cpf;nivel\n${cpf};ASG\n`], "cpfs.csv", { type: "text/csv" }));
  form.set("idEmpresa", String(company));
  form.set("idEmpresaFilial", String(branch));
  return form;
}

/** The catalogue routes of spec 000 §7 'Reference data', the same eleven calls for each of the four kinds. */
function catalogueRoutes(): ScopedRoute[] {
  return CATALOGUE_KINDS.flatMap((kind): ScopedRoute[] => {
    const c = CATALOGUES[kind];
    const base = `/api${c.apiPath}`;
    const item = (target: Target) => itemOf(target, c.table);
    const color = c.hasColor ? { color: "#123456" } : {};
    return [
      { name: `GET ${base}?companyId`, method: "GET", path: (b) => `${base}?companyId=${b.companyId}` },
      { name: `GET ${base}?filialId`, method: "GET", path: (b) => `${base}?filialId=${b.branchId}` },
      { name: `GET ${base}?filialClientId`, method: "GET", path: (b) => `${base}?filialClientId=${b.branchId}` },
      {
        name: `GET ${base}?companyId&ids`,
        method: "GET",
        path: (b) => `${base}?companyId=${b.companyId}&ids=${item(b)}`,
      },
      // Without a scope query: the caller's scope alone must refuse the id (docs/security.md).
      { name: `GET ${base}?ids`, method: "GET", path: (b, own) => `${base}?ids=${item(own)},${item(b)}` },
      {
        name: `GET ${base}?companyId&q&size (paged)`,
        method: "GET",
        path: (b) => `${base}?companyId=${b.companyId}&q=a&size=0`,
      },
      {
        name: `GET ${base}?filialId&page (paged)`,
        method: "GET",
        path: (b) => `${base}?filialId=${b.branchId}&page=1&sort=empresa`,
      },
      {
        name: `POST ${base} {companyId}`,
        method: "POST",
        path: () => base,
        body: (b) => ({ name: "Invasor", companyId: b.branchId, ...color }),
      },
      {
        name: `POST ${base}/ {companyId}`,
        method: "POST",
        path: () => `${base}/`,
        body: (b) => ({ name: "Invasor 2", companyId: b.branchId, ...color }),
      },
      {
        name: `PUT ${base}/{id}`,
        method: "PUT",
        path: (b) => `${base}/${item(b)}`,
        body: () => ({ name: "Invasor 3", ...color }),
      },
      {
        name: `PUT ${base}/{own id} {empresa}`,
        method: "PUT",
        path: (_b, own) => `${base}/${item(own)}`,
        body: (b) => ({ name: "Invasor 4", empresa: b.branchId, ...color }),
      },
      { name: `DELETE ${base} {id}`, method: "DELETE", path: () => base, body: (b) => ({ id: item(b), name: "x" }) },
      { name: `DELETE ${base}/{id}`, method: "DELETE", path: (b) => `${base}/${item(b)}` },
      {
        name: `POST ${base}/duplicar {ids} into own branch`,
        method: "POST",
        path: () => `${base}/duplicar`,
        body: (b, own) => ({ ids: [item(b)], companyId: own.branchId }),
      },
      {
        name: `POST ${base}/duplicar own ids {companyId}`,
        method: "POST",
        path: () => `${base}/duplicar`,
        body: (b, own) => ({ ids: [item(own)], companyId: b.branchId }),
      },
      {
        name: `POST /api${c.csvPath} {idEmpresaFilial}`,
        method: "POST",
        path: () => `/api${c.csvPath}`,
        body: (b) => csvUpload(c.csvField, c.hasColor, b.branchId),
      },
    ];
  });
}

/** An environment of the target (the lookup guarantees the demo data has one in its first branch). */
function environmentOf(target: Target) {
  if (target.environmentId === null) throw new Error(`the demo data has no environment in branch ${target.branchId}`);
  return target.environmentId;
}

let environmentNames = 0;

/**
 * An environment payload (spec 000 §7 'Environments') made of the `own` branch's catalogue items, with the fields
 * named in `from` taken from `target` instead: only those ids can be the problem. A new name each time.
 */
function environmentBody(
  target: Target,
  own: Target,
  from: ("companyId" | "categoriaId" | "setorId" | "riscos" | "procedures" | "proceduresNotMandatory")[] = [],
) {
  const pick = (field: (typeof from)[number]) => (from.includes(field) ? target : own);
  return {
    name: `Invasor ambiente ${++environmentNames}`,
    andar: "Térreo",
    companyId: pick("companyId").branchId,
    categoriaId: itemOf(pick("categoriaId"), "categories"),
    setorId: itemOf(pick("setorId"), "sectors"),
    riscos: [itemOf(pick("riscos"), "risks")],
    procedures: from.includes("proceduresNotMandatory") ? [] : [itemOf(pick("procedures"), "procedures")],
    proceduresNotMandatory: from.includes("proceduresNotMandatory") ? [itemOf(target, "procedures")] : [],
  };
}

/** The environment routes of spec 000 §7 'Environments' (and the list's paging), with the target's ids. */
function environmentRoutes(): ScopedRoute[] {
  const base = "/api/environments";
  const foreignItems = ["categoriaId", "setorId", "riscos", "procedures", "proceduresNotMandatory"] as const;
  return [
    { name: `GET ${base}?companyId`, method: "GET", path: (b) => `${base}?companyId=${b.companyId}` },
    { name: `GET ${base}?filialId`, method: "GET", path: (b) => `${base}?filialId=${b.branchId}` },
    { name: `GET ${base}?filialClientId`, method: "GET", path: (b) => `${base}?filialClientId=${b.branchId}` },
    {
      name: `GET ${base}?companyId&ids`,
      method: "GET",
      path: (b) => `${base}?companyId=${b.companyId}&ids=${environmentOf(b)}`,
    },
    {
      name: `GET ${base}?ids`,
      method: "GET",
      path: (b, own) => `${base}?ids=${environmentOf(own)},${environmentOf(b)}`,
    },
    {
      name: `GET ${base}?companyId&q&fields&size (paged)`,
      method: "GET",
      path: (b) => `${base}?companyId=${b.companyId}&q=a&fields=ambiente,risco,procedimento&size=0`,
    },
    {
      name: `GET ${base}?filialId&after (chunk)`,
      method: "GET",
      path: (b) => `${base}?filialId=${b.branchId}&after=&sort=empresa`,
    },
    { name: `GET ${base}/form/{companyId}`, method: "GET", path: (b) => `${base}/form/${b.branchId}` },
    { name: `GET ${base}/{id}`, method: "GET", path: (b) => `${base}/${environmentOf(b)}` },
    {
      name: `POST ${base} {companyId and every item}`,
      method: "POST",
      path: () => base,
      body: (b, own) => environmentBody(b, own, ["companyId", ...foreignItems]),
    },
    // The create is registered with and without the trailing slash: each id alone, on both.
    ...[base, `${base}/`].flatMap((path): ScopedRoute[] => [
      {
        name: `POST ${path} own items {companyId}`,
        method: "POST",
        path: () => path,
        body: (b, own) => environmentBody(b, own, ["companyId"]),
      },
      ...foreignItems.map((field): ScopedRoute => ({
        name: `POST ${path} own companyId {${field}}`,
        method: "POST",
        path: () => path,
        body: (b, own) => environmentBody(b, own, [field]),
      })),
    ]),
    {
      name: `PUT ${base}/{id}`,
      method: "PUT",
      path: (b) => `${base}/${environmentOf(b)}`,
      body: (b, own) => environmentBody(b, own, [...foreignItems]),
    },
    {
      name: "POST /api/ambientes/{id}/qrcode/reemitir",
      method: "POST",
      path: (b) => `/api/ambientes/${environmentOf(b)}/qrcode/reemitir`,
    },
    {
      name: `PUT ${base}/{id} own items`,
      method: "PUT",
      path: (b) => `${base}/${environmentOf(b)}`,
      body: (_b, own) => environmentBody(own, own),
    },
    ...foreignItems.map((field): ScopedRoute => ({
      name: `PUT ${base}/{own id} {${field}}`,
      method: "PUT",
      path: (_b, own) => `${base}/${environmentOf(own)}`,
      body: (b, own) => environmentBody(b, own, [field]),
    })),
    // The removal takes the id as `ID` or `id` (the list and nested forms carry either), with and without the slash.
    ...[base, `${base}/`].flatMap((path) =>
      (["ID", "id"] as const).map((field): ScopedRoute => ({
        name: `DELETE ${path} {${field}}`,
        method: "DELETE",
        path: () => path,
        body: (b) => ({ [field]: environmentOf(b) }),
      })),
    ),
    { name: `DELETE ${base}/{id}`, method: "DELETE", path: (b) => `${base}/${environmentOf(b)}` },
  ];
}

/**
 * Agendas (docs/scheduling.md): the demo data has none, so each branch a test addresses gets one agenda with one
 * booking, written directly (beforeAll below), keyed by branch id; and a periodicity with one revision of no agenda,
 * whose ids the ignored-id routes send (no agenda update of the branch's own can remove them).
 */
type AgendaFixture = { agendaId: number; bookingId: number; periodicityId: number; revisionId: number };
const agendaFixtures = new Map<number, AgendaFixture>();
const fixtureOf = (target: Target) =>
  agendaFixtures.get(target.branchId) ?? { agendaId: 0, bookingId: 0, periodicityId: 0, revisionId: 0 };
const agendaOf = (target: Target) => fixtureOf(target).agendaId;
const bookingOf = (target: Target) => fixtureOf(target).bookingId;

/**
 * An agenda of today for the target's user in the target's first room, with its periodicity and one booking (started
 * when told), written directly.
 */
async function insertAgenda(db: Kysely<DB>, target: Target, options: { nome: string; started?: boolean }) {
  const today = businessToday();
  const periodicity = await db
    .insertInto("periodicities")
    .values({
      branch_id: target.branchId,
      nome: options.nome,
      type: "12X",
      hora_base_inicial: "08:00",
      hora_base_final: "09:00",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const agenda = await db
    .insertInto("agendas")
    .values({
      company_id: target.companyId,
      branch_id: target.branchId,
      environment_id: environmentOf(target),
      periodicity_id: periodicity.id,
      user_id: target.userId,
      vig_ini: today,
      vig_fim: today,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const booking = await db
    .insertInto("bookings")
    .values({
      agenda_id: agenda.id,
      company_id: target.companyId,
      branch_id: target.branchId,
      user_id: target.userId,
      environment_id: environmentOf(target),
      data_agend: today,
      hora_ini: "08:00",
      hora_fim: "09:00",
      ...(options.started ? { status: "Andamento", start_date: new Date() } : {}),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { agendaId: agenda.id, bookingId: booking.id };
}

async function addAgendaFixture(db: Kysely<DB>, target: Target) {
  const { agendaId, bookingId } = await insertAgenda(db, target, { nome: "Tenancy" });
  const spare = await db
    .insertInto("periodicities")
    .values({
      branch_id: target.branchId,
      nome: "Tenancy, sem agenda",
      type: "12X",
      hora_base_inicial: "10:00",
      hora_base_final: "11:00",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const revision = await db
    .insertInto("revisions")
    .values({ periodicity_id: spare.id, branch_id: target.branchId, hora_inicial: "12:00", hora_final: "12:30" })
    .returning("id")
    .executeTakeFirstOrThrow();
  agendaFixtures.set(target.branchId, { agendaId, bookingId, periodicityId: spare.id, revisionId: revision.id });
}

/** A save-agenda item (spec 001 §3) for today, with the target's branch, environment and user where `from` says. */
function agendaItemBody(target: Target, own: Target, from: ("branch" | "environment" | "user")[]) {
  const pick = (field: (typeof from)[number]) => (from.includes(field) ? target : own);
  const today = businessToday();
  return {
    Id_EmpresasFilial: pick("branch").branchId,
    Id_Environments: environmentOf(pick("environment")),
    Id_Users: pick("user").userId,
    Periodicidade: { type: "12X", DIAS_SEMANA: "", hora_base_inicial: "22:00", hora_base_final: "22:30", Revisoes: [] },
    revisionPhotos: false,
    vigIni: today,
    vigFim: today,
  };
}

/** An update-agenda payload for `agenda`'s fixture, with the target's ids where `from` says. */
function agendaUpdateBody(agenda: Target, target: Target, own: Target, from: ("branch" | "environment" | "user")[]) {
  const item = agendaItemBody(target, own, from);
  return {
    Id_EmpresasFilial: item.Id_EmpresasFilial,
    Id_Environments: item.Id_Environments,
    Id_Users: item.Id_Users,
    revisionPhotos: item.revisionPhotos,
    vigIni: item.vigIni,
    vigFim: item.vigFim,
    ID: agendaOf(agenda),
    ATIVO: true,
    Periodicidade: { type: "12X", DIAS_SEMANA: "", HORA_BASE_INICIAL: "22:00", HORA_BASE_FINAL: "22:30", Revisoes: [] },
  };
}

/** The history reports' calls (issue 23), with the target's scope ids, collaborator and room. */
function reportRoutes(): ScopedRoute[] {
  const range = () => `dataIni=${businessToday()}&dataFim=${businessToday()}`;
  const scopeFields = [
    ["companyId", (b: Target) => b.companyId],
    ["filialId", (b: Target) => b.branchId],
    ["filialClientId", (b: Target) => b.branchId],
  ] as const;
  const lists = ["colaboradores", "ambientes", "linhas", "atividades", "cliente", "tarefas-incompletas"].flatMap(
    (list) =>
      scopeFields.map(([field, id]): ScopedRoute => ({
        name: `GET /api/relatorios/${list}?${field}`,
        method: "GET",
        path: (b) => `/api/relatorios/${list}?${range()}&${field}=${id(b)}`,
      })),
  );
  // The drill-downs name the caller's own collaborator and room, so only the scope field is another tenant's.
  const drillDowns = scopeFields.flatMap(([field, id]): ScopedRoute[] => [
    {
      name: `GET /api/relatorios/dias?${field}`,
      method: "GET",
      path: (b, own) => `/api/relatorios/dias?${range()}&userId=${own.userId}&${field}=${id(b)}`,
    },
    {
      name: `GET /api/relatorios/dia?${field}`,
      method: "GET",
      path: (b, own) =>
        `/api/relatorios/dia?data=${businessToday()}&userId=${own.userId}&ambienteId=${environmentOf(own)}&${field}=${id(b)}`,
    },
    {
      name: `GET /api/relatorios/tarefas-incompletas/procedimento?${field}`,
      method: "GET",
      path: (b) => `/api/relatorios/tarefas-incompletas/procedimento?${range()}&nome=Limpar%20piso&${field}=${id(b)}`,
    },
    {
      name: `GET /api/relatorios/tarefas-incompletas/ambiente/{id}?${field}`,
      method: "GET",
      path: (b, own) =>
        `/api/relatorios/tarefas-incompletas/ambiente/${environmentOf(own)}?${range()}&${field}=${id(b)}`,
    },
  ]);
  return [
    ...lists,
    ...drillDowns,
    {
      name: "GET /api/relatorios/colaboradores?userId",
      method: "GET",
      path: (b) => `/api/relatorios/colaboradores?${range()}&userId=${b.userId}`,
    },
    {
      name: "GET /api/relatorios/colaboradores?ambienteId",
      method: "GET",
      path: (b) => `/api/relatorios/colaboradores?${range()}&ambienteId=${environmentOf(b)}`,
    },
    {
      name: "GET /api/relatorios/dias?userId",
      method: "GET",
      path: (b) => `/api/relatorios/dias?${range()}&userId=${b.userId}`,
    },
    {
      name: "GET /api/relatorios/dias?ambienteId",
      method: "GET",
      path: (b, own) => `/api/relatorios/dias?${range()}&userId=${own.userId}&ambienteId=${environmentOf(b)}`,
    },
    {
      name: "GET /api/relatorios/dia?userId",
      method: "GET",
      path: (b, own) =>
        `/api/relatorios/dia?data=${businessToday()}&userId=${b.userId}&ambienteId=${environmentOf(own)}`,
    },
    {
      name: "GET /api/relatorios/dia?ambienteId",
      method: "GET",
      path: (b, own) =>
        `/api/relatorios/dia?data=${businessToday()}&userId=${own.userId}&ambienteId=${environmentOf(b)}`,
    },
    {
      name: "GET /api/relatorios/linhas?userId",
      method: "GET",
      path: (b) => `/api/relatorios/linhas?${range()}&userId=${b.userId}`,
    },
    {
      name: "GET /api/relatorios/linhas?ambienteId",
      method: "GET",
      path: (b) => `/api/relatorios/linhas?${range()}&ambienteId=${environmentOf(b)}`,
    },
    {
      name: "GET /api/relatorios/tarefas-incompletas/ambiente/{id}",
      method: "GET",
      path: (b) => `/api/relatorios/tarefas-incompletas/ambiente/${environmentOf(b)}?${range()}`,
    },
  ];
}

/**
 * The activity report's detail (issue 24): the target's booking, or the caller's own with a scope field of the target.
 * Listed before the agenda routes, whose control removes the fixture booking.
 */
function activityDetailRoutes(): ScopedRoute[] {
  const scopeFields = [
    ["companyId", (b: Target) => b.companyId],
    ["filialId", (b: Target) => b.branchId],
    ["filialClientId", (b: Target) => b.branchId],
  ] as const;
  return [
    {
      name: "GET /api/relatorios/atividades/{id}",
      method: "GET",
      path: (b) => `/api/relatorios/atividades/${bookingOf(b)}`,
    },
    ...scopeFields.map(([field, id]): ScopedRoute => ({
      name: `GET /api/relatorios/atividades/{id}?${field}`,
      method: "GET",
      path: (b, own) => `/api/relatorios/atividades/${bookingOf(own)}?${field}=${id(b)}`,
    })),
  ];
}

/** The audit dashboard's call (docs/audit-dashboard.md): the scope fields and every filter, with the target's ids. */
function auditRoutes(): ScopedRoute[] {
  const path = (query: string) => `/api/auditoria?dataIni=${businessToday()}&dataFim=${businessToday()}&${query}`;
  const filters: [string, (b: Target) => number][] = [
    ["companyId", (b) => b.companyId],
    ["filialId", (b) => b.branchId],
    ["filialClientId", (b) => b.branchId],
    ["filiais", (b) => b.branchId],
    ["colaboradores", (b) => b.userId],
    ["ambientes", (b) => environmentOf(b)],
    ["categorias", (b) => itemOf(b, "categories")],
    ["setores", (b) => itemOf(b, "sectors")],
    ["procedimentos", (b) => itemOf(b, "procedures")],
  ];
  return [
    ...filters.map(([field, id]): ScopedRoute => ({
      name: `GET /api/auditoria?${field}`,
      method: "GET",
      path: (b) => path(`${field}=${id(b)}`),
    })),
    ...filters.slice(0, 4).map(([field, id]): ScopedRoute => ({
      name: `GET /api/auditoria/opcoes?${field}`,
      method: "GET",
      path: (b) => `/api/auditoria/opcoes?${field}=${id(b)}`,
    })),
  ];
}

/** The old system's calls of spec 001 §7 (docs/legacy-data.md), with the target's ids. */
function legacyRoutes(): ScopedRoute[] {
  const period = "dataInicio=2022-01-01&dataFim=2022-07-31";
  const dashboard = "/api/environments/dashboard?dataI=2022-01-01&dataF=2022-07-31";
  return [
    { name: "GET /api/dash/user?userId", method: "GET", path: (b) => `/api/dash/user?${period}&userId=${b.userId}` },
    {
      name: "GET /api/environments/dashboard?idEmpresa",
      method: "GET",
      path: (b) => `${dashboard}&idEmpresa=${b.companyId}`,
    },
    {
      name: "GET /api/environments/dashboard?filialId",
      method: "GET",
      path: (b, own) => `${dashboard}&idEmpresa=${own.companyId}&filialId=${b.branchId}`,
    },
    {
      name: "GET /api/info/all/environments?environmentId",
      method: "GET",
      path: (b) => `/api/info/all/environments?${period}&environmentId=${environmentOf(b)}`,
    },
    { name: "GET /api/observacao?id", method: "GET", path: (b) => `/api/observacao?${period}&id=${b.companyId}` },
    {
      name: "GET /api/observacao?filialId",
      method: "GET",
      path: (b, own) => `/api/observacao?${period}&id=${own.companyId}&filialId=${b.branchId}`,
    },
  ];
}

/** The agenda routes of spec 001 §7 (and GET /agendas/{id}), with the target's ids. */
function agendaRoutes(): ScopedRoute[] {
  const range = () => `dataIni=${businessToday()}&dataFim=${businessToday()}`;
  const list = "/api/agendas/v2/Agendamentos/company";
  const asgs = "/api/agendas/v2/Agendamentos/listaAsg";
  const summary = "/api/agendas/v2/Agendamentos/resumo";
  return [
    { name: `GET ${list}?companyId`, method: "GET", path: (b) => `${list}?${range()}&companyId=${b.companyId}` },
    { name: `GET ${list}?filialId`, method: "GET", path: (b) => `${list}?${range()}&filialId=${b.branchId}` },
    {
      name: `GET ${list}?filialClientId&report`,
      method: "GET",
      path: (b) => `${list}?${range()}&filialClientId=${b.branchId}&report=true`,
    },
    { name: `GET ${list}?asgId`, method: "GET", path: (b) => `${list}?${range()}&asgId=${b.userId}` },
    {
      name: `GET ${list}?filialId&limit&page`,
      method: "GET",
      path: (b) => `${list}?${range()}&filialId=${b.branchId}&limit=500&page=1`,
    },
    // The list's counts per day and status (the calendar's marks) take the list's filters.
    ...(
      [
        ["companyId", (b: Target) => b.companyId],
        ["filialId", (b: Target) => b.branchId],
        ["filialClientId", (b: Target) => b.branchId],
        ["asgId", (b: Target) => b.userId],
      ] as const
    ).map(([field, id]): ScopedRoute => ({
      name: `GET ${summary}?${field}`,
      method: "GET",
      path: (b) => `${summary}?${range()}&${field}=${id(b)}`,
    })),
    // One agenda's or one booking's rows, without a scope query: the caller's scope alone must refuse the id.
    ...[list, summary].flatMap((path) =>
      (["agendaId", "id"] as const).map((field): ScopedRoute => ({
        name: `GET ${path}?${field}`,
        method: "GET",
        path: (b) => `${path}?${range()}&${field}=${field === "id" ? bookingOf(b) : agendaOf(b)}`,
      })),
    ),
    { name: `GET ${asgs}?companyId`, method: "GET", path: (b) => `${asgs}?companyId=${b.companyId}` },
    { name: `GET ${asgs}?filialId`, method: "GET", path: (b) => `${asgs}?filialId=${b.branchId}` },
    { name: `GET ${asgs}?filialClientId`, method: "GET", path: (b) => `${asgs}?filialClientId=${b.branchId}` },
    { name: "GET /api/agendas/{id}", method: "GET", path: (b) => `/api/agendas/${agendaOf(b)}` },
    ...(
      [["branch", "environment", "user"], ["branch"], ["environment"], ["user"]] as (
        "branch" | "environment" | "user"
      )[][]
    ).map((from): ScopedRoute => ({
      name: `POST /api/agendas/v2/saveAgenda {${from.join(", ")}}`,
      method: "POST",
      path: () => "/api/agendas/v2/saveAgenda",
      body: (b, own) => [agendaItemBody(b, own, from)],
    })),
    {
      name: "PUT /api/agendas/updateAgenda {ID, branch, environment, user}",
      method: "PUT",
      path: () => "/api/agendas/updateAgenda",
      body: (b, own) => agendaUpdateBody(b, b, own, ["branch", "environment", "user"]),
    },
    {
      name: "PUT /api/agendas/updateAgenda {ID}",
      method: "PUT",
      path: () => "/api/agendas/updateAgenda",
      body: (b, own) => agendaUpdateBody(b, own, own, []),
    },
    ...(["branch", "environment", "user"] as const).map((field): ScopedRoute => ({
      name: `PUT /api/agendas/updateAgenda own ID {${field}}`,
      method: "PUT",
      path: () => "/api/agendas/updateAgenda",
      body: (b, own) => agendaUpdateBody(own, b, own, [field]),
    })),
    {
      name: "DELETE /api/agendas/Agendamentos/{id}",
      method: "DELETE",
      path: (b) => `/api/agendas/Agendamentos/${bookingOf(b)}`,
    },
  ];
}

/** The execution app's upload of one procedure done: the procedure's id and a PNG photo. */
function procedureUpload(procedureId: number) {
  const form = pngFile();
  form.set("procedureId", String(procedureId));
  form.set("photo", form.get("avatar")!);
  form.delete("avatar");
  return form;
}

/**
 * History reads and the execution API (docs/scheduling.md 'History and the execution API'), with the target's ids.
 * The execution calls act only on the caller's own bookings, and no administrator is a booking's collaborator, so
 * their control (own ids, not 404) cannot be tried here: tests/api/execution.test.ts runs it as the ASG.
 */
function historyAndExecutionRoutes(): ScopedRoute[] {
  const range = () => `dataIni=${businessToday()}&dataFim=${businessToday()}`;
  const history = "/api/historic/v2";
  const slot = (b: Target) => `/api/execution/bookings/${bookingOf(b)}`;
  return [
    {
      name: `GET ${history}/company?companyId`,
      method: "GET",
      path: (b) => `${history}/company?${range()}&companyId=${b.companyId}`,
    },
    {
      name: `GET ${history}/company?filialId`,
      method: "GET",
      path: (b) => `${history}/company?${range()}&filialId=${b.branchId}`,
    },
    {
      name: `GET ${history}/company?filialClientId`,
      method: "GET",
      path: (b) => `${history}/company?${range()}&filialClientId=${b.branchId}`,
    },
    {
      name: `GET ${history}/agenda?agendaId`,
      method: "GET",
      path: (b) => `${history}/agenda?${range()}&agendaId=${agendaOf(b)}`,
    },
    {
      name: `GET ${history}/byEnvironment/{id}`,
      method: "GET",
      path: (b) => `${history}/byEnvironment/${environmentOf(b)}?${range()}`,
    },
    { name: "GET /api/execution/bookings/{id}", method: "GET", path: slot, control: false },
    // The field app's room page (docs/field-app.md 'Calls'): a room of the caller's company and branch only.
    {
      name: "GET /api/execution/environments/{id}",
      method: "GET",
      path: (b) => `/api/execution/environments/${environmentOf(b)}`,
    },
    ...(["start", "finish", "procedures/remaining"] as const).map((action): ScopedRoute => ({
      name: `POST /api/execution/bookings/{id}/${action}`,
      method: "POST",
      path: (b) => `${slot(b)}/${action}`,
      control: false,
    })),
    {
      name: "POST /api/execution/bookings/{id}/incomplete",
      method: "POST",
      path: (b) => `${slot(b)}/incomplete`,
      body: () => ({ justificativa: "Invasor" }),
      control: false,
    },
    {
      name: "POST /api/execution/bookings/{id}/procedures {procedureId}",
      method: "POST",
      path: (b) => `${slot(b)}/procedures`,
      body: (b) => procedureUpload(itemOf(b, "procedures")),
      control: false,
    },
    {
      name: "POST /api/execution/bookings/{id}/procedures own procedureId",
      method: "POST",
      path: (b) => `${slot(b)}/procedures`,
      body: (_b, own) => procedureUpload(itemOf(own, "procedures")),
      control: false,
    },
  ];
}

/**
 * An execution photo per branch that has an agenda fixture (written in beforeAll): a history row of the fixture's
 * booking naming a file in the store. Served by GET /api/files/photos/{name} (docs/photos.md) within scope only. The
 * name is not an id field, so the coverage check below does not ask for these tries: they are listed by hand.
 */
const photoFixtures = new Map<number, string>();
const photoOf = (target: Target) => photoFixtures.get(target.branchId) ?? "sem-foto.png";

async function addPhotoFixture(db: Kysely<DB>, target: Target, storageDir: string) {
  const image = await createDiskStorage(storageDir).save(PHOTO_FOLDER, "png", tinyPng());
  await db
    .insertInto("history")
    .values({
      booking_id: bookingOf(target),
      procedure_id: itemOf(target, "procedures"),
      user_id: target.userId,
      image,
    })
    .execute();
  photoFixtures.set(target.branchId, image);
}

/** The photo routes with the target's photo: the file and its thumbnail. */
function photoRoutes(): ScopedRoute[] {
  return [
    { name: "GET /api/files/photos/{name}", method: "GET", path: (b) => `/api/files/photos/${photoOf(b)}` },
    { name: "GET /api/files/photos/{name}/thumb", method: "GET", path: (b) => `/api/files/photos/${photoOf(b)}/thumb` },
  ];
}

/** PUT /api/empresas/updateEmpresaFilial's body: branch ID of company Id_Empresas renamed, otherwise valid. */
const branchEdit = (ID: number, Id_Empresas: number, NOME: string) => ({
  ID,
  NOME,
  CNPJ: "11222333000181",
  ENDERECO: "Rua",
  NUMERO: "1",
  ATIVO: true,
  Id_Empresas,
});

/** An incident of the target (issue 28): its company's, or its branch's when a branch was named. */
function incidentOf(target: Target) {
  if (target.incidentId === null) throw new Error(`the demo data has no incident for company ${target.companyId}`);
  return target.incidentId;
}

function required<T>(value: T | null, what: string, target: Target): T {
  if (value === null) throw new Error(`the demo data has no ${what} for branch ${target.branchId}`);
  return value;
}
const checklistOf = (target: Target) => required(target.checklistId, "checklist", target);
const inspectionOf = (target: Target) => required(target.inspectionId, "inspection", target);
const inspectionItemOf = (target: Target) => required(target.inspectionItemId, "failed inspection item", target);
const exportJobOf = (target: Target) => required(target.exportJobId, "export job", target);

/** An export job and its file for every user (beforeAll): only the requester reads either. */
async function addExportFixtures(db: Kysely<DB>, storageDir: string) {
  const file = await createDiskStorage(storageDir).save(EXPORT_FOLDER, "xlsx", tinyPng());
  await sql`insert into export_jobs (company_id, user_id, caminho, origem, status, arquivo, nome_arquivo, tipo_arquivo)
    select company_id, id, '/setores/exportar.xlsx', 'http://localhost', 'pronta', ${file}, 'setores.xlsx', 'application/octet-stream'
    from users`.execute(db);
}

/** The export job routes (docs/exports.md) with the target user's job. */
function exportJobRoutes(): ScopedRoute[] {
  return [
    { name: "GET /api/exportacoes/{id}", method: "GET", path: (b) => `/api/exportacoes/${exportJobOf(b)}` },
    {
      name: "GET /api/exportacoes/{id}/arquivo",
      method: "GET",
      path: (b) => `/api/exportacoes/${exportJobOf(b)}/arquivo`,
    },
  ];
}

/** A checklist body with the given category and procedure, otherwise valid. */
const checklistBody = (categoriaId: number | null, procedimentoId: number | null) => ({
  categoriaId,
  nome: "Invasor",
  itens: [{ texto: "Invasor", peso: 1, procedimentoId }],
});

/** A submission (multipart) for the room, otherwise well formed. */
function inspectionUpload(environmentId: number | null) {
  const form = new FormData();
  form.set("ambienteId", String(environmentId));
  form.set("versao", "1");
  form.set("observacao", "Invasor");
  return form;
}

/** The inspection calls a branch-level caller also makes (api/routes/inspections.ts), with the target's ids. */
function inspectionRoutes(): ScopedRoute[] {
  const failure = (b: Target) => `/api/inspecoes/${inspectionOf(b)}/itens/${inspectionItemOf(b)}/ocorrencia`;
  return [
    { name: "GET /api/inspecoes?filialId", method: "GET", path: (b) => `/api/inspecoes?filialId=${b.branchId}` },
    {
      name: "GET /api/inspecoes?ambienteId",
      method: "GET",
      path: (b) => `/api/inspecoes?ambienteId=${environmentOf(b)}`,
    },
    {
      name: "GET /api/inspecoes/pontuacao?filialId",
      method: "GET",
      path: (b) => `/api/inspecoes/pontuacao?filialId=${b.branchId}`,
    },
    {
      name: "GET /api/inspecoes/ambientes?filialId",
      method: "GET",
      path: (b) => `/api/inspecoes/ambientes?filialId=${b.branchId}`,
    },
    {
      name: "GET /api/inspecoes/formulario/{ambienteId}",
      method: "GET",
      path: (b) => `/api/inspecoes/formulario/${environmentOf(b)}`,
    },
    {
      name: "GET /api/inspecoes/formulario/{own ambienteId}?reinspecaoDe",
      method: "GET",
      path: (b, own) => `/api/inspecoes/formulario/${environmentOf(own)}?reinspecaoDe=${inspectionOf(b)}`,
      control: false,
    },
    {
      name: "POST /api/inspecoes {ambienteId}",
      method: "POST",
      path: () => "/api/inspecoes",
      body: (b) => inspectionUpload(environmentOf(b)),
      // The own room without answers is 400 (tests/api/inspections.test.ts).
      control: false,
    },
    { name: "GET /api/inspecoes/{id}", method: "GET", path: (b) => `/api/inspecoes/${inspectionOf(b)}` },
    {
      name: "GET /api/inspecoes/{id}/fotos/{name}",
      method: "GET",
      path: (b) => `/api/inspecoes/${inspectionOf(b)}/fotos/sem-foto.jpg`,
      control: false,
    },
    {
      name: "POST /api/inspecoes/{id}/itens/{itemId}/ocorrencia",
      method: "POST",
      path: failure,
      body: (_b, own) => ({ tipoId: own.incidentKindId }),
      control: false,
    },
    {
      name: "POST /api/inspecoes/{id}/itens/{own itemId}/ocorrencia",
      method: "POST",
      path: (b, own) => `/api/inspecoes/${inspectionOf(b)}/itens/${inspectionItemOf(own)}/ocorrencia`,
      body: (_b, own) => ({ tipoId: own.incidentKindId }),
      control: false,
    },
    {
      name: "POST /api/inspecoes/{own id}/itens/{own itemId}/ocorrencia {tipoId}",
      method: "POST",
      path: (_b, own) => failure(own),
      body: (b) => ({ tipoId: b.incidentKindId }),
      control: false,
    },
    {
      name: "POST /api/inspecoes/{own id}/itens/{itemId}/ocorrencia",
      method: "POST",
      path: (b, own) => `/api/inspecoes/${inspectionOf(own)}/itens/${inspectionItemOf(b)}/ocorrencia`,
      body: (_b, own) => ({ tipoId: own.incidentKindId }),
      control: false,
    },
    {
      name: "POST /api/inspecoes/{own id}/itens/{own itemId}/ocorrencia {colaboradorId}",
      method: "POST",
      path: (_b, own) => failure(own),
      body: (b, own) => ({ tipoId: own.incidentKindId, colaboradorId: b.userId }),
      control: false,
    },
  ];
}

/** The checklist calls (roles 1–2 only, so no branch-level list) with the target's ids. */
function checklistRoutes(): ScopedRoute[] {
  return [
    {
      name: "GET /api/inspecoes/checklists?filialId",
      method: "GET",
      path: (b) => `/api/inspecoes/checklists?filialId=${b.branchId}`,
    },
    {
      name: "GET /api/inspecoes/checklists/{id}",
      method: "GET",
      path: (b) => `/api/inspecoes/checklists/${checklistOf(b)}`,
    },
    {
      name: "POST /api/inspecoes/checklists {categoriaId}",
      method: "POST",
      path: () => "/api/inspecoes/checklists",
      body: (b) => checklistBody(b.categoryId, null),
      // The own first category already has its demo checklist: 409.
    },
    {
      name: "POST /api/inspecoes/checklists {itens[].procedimentoId}",
      method: "POST",
      path: () => "/api/inspecoes/checklists",
      body: (b, own) => checklistBody(own.categoryId, b.procedureId),
    },
    {
      name: "PUT /api/inspecoes/checklists/{id}",
      method: "PUT",
      path: (b) => `/api/inspecoes/checklists/${checklistOf(b)}`,
      body: (_b, own) => checklistBody(own.categoryId, null),
      control: false,
    },
    {
      name: "PUT /api/inspecoes/checklists/{own id} {categoriaId}",
      method: "PUT",
      path: (_b, own) => `/api/inspecoes/checklists/${checklistOf(own)}`,
      body: (b) => checklistBody(b.categoryId, null),
    },
    {
      name: "PUT /api/inspecoes/checklists/{own id} {itens[].procedimentoId}",
      method: "PUT",
      path: (_b, own) => `/api/inspecoes/checklists/${checklistOf(own)}`,
      body: (b, own) => checklistBody(own.categoryId, b.procedureId),
      // The own control changes nothing that matters here; the own category is not the checklist's: 400.
    },
    {
      name: "POST /api/inspecoes/checklists/{id}/duplicar",
      method: "POST",
      path: (b) => `/api/inspecoes/checklists/${checklistOf(b)}/duplicar`,
      body: (_b, own) => ({ filialId: own.branchId }),
      control: false,
    },
    {
      name: "POST /api/inspecoes/checklists/{own id}/duplicar {filialId}",
      method: "POST",
      path: (_b, own) => `/api/inspecoes/checklists/${checklistOf(own)}/duplicar`,
      body: (b) => ({ filialId: b.branchId }),
    },
  ];
}

/** The managers' incident calls (api/routes/incidents.ts) with the target's ids. */
function incidentRoutes(): ScopedRoute[] {
  return [
    { name: "GET /api/ocorrencias/{id}", method: "GET", path: (b) => `/api/ocorrencias/${incidentOf(b)}` },
    {
      name: "GET /api/ocorrencias?filialId",
      method: "GET",
      path: (b) => `/api/ocorrencias?filialId=${b.branchId}`,
    },
    {
      name: "POST /api/ocorrencias/{id}/eventos {prazo_alterado}",
      method: "POST",
      path: (b) => `/api/ocorrencias/${incidentOf(b)}/eventos`,
      body: () => ({ tipo: "prazo_alterado", prazo: new Date(Date.now() + 86_400_000).toISOString() }),
    },
    {
      name: "POST /api/ocorrencias/{own id}/eventos {responsavelId}",
      method: "POST",
      path: (_b, own) => `/api/ocorrencias/${incidentOf(own)}/eventos`,
      body: (b) => ({ tipo: "atribuida", responsavelId: b.userId }),
      // The own control would assign the caller's own user (an administrator may own an incident): not a 404 case.
      control: false,
    },
    {
      name: "POST /api/ocorrencias/{own id}/eventos {corretiva colaboradorId}",
      method: "POST",
      path: (_b, own) => `/api/ocorrencias/${incidentOf(own)}/eventos`,
      body: (b) => ({ tipo: "corretiva", colaboradorId: b.userId }),
      // The own control names the caller, no ASG: 400, nothing written (tests/api/incident-loop.test.ts).
      control: false,
    },
    { name: "GET /api/ocorrencias?tipo", method: "GET", path: (b) => `/api/ocorrencias?tipo=${b.incidentKindId}` },
    {
      name: "GET /api/ocorrencias/resumo?filialId",
      method: "GET",
      path: (b) => `/api/ocorrencias/resumo?filialId=${b.branchId}`,
    },
    {
      name: "PUT /api/ocorrencias/tipos/{id}",
      method: "PUT",
      path: (b) => `/api/ocorrencias/tipos/${b.incidentKindId}`,
      body: () => ({ nome: "Invasor", prazoMinutos: 60, prova: "nota", ativo: true }),
    },
    {
      name: "GET /api/ocorrencias/{id}/fotos/{name}",
      method: "GET",
      path: (b) => `/api/ocorrencias/${incidentOf(b)}/fotos/sem-foto.jpg`,
      control: false,
    },
    // The field calls act on the caller's corrective bookings only; tests/api/incident-loop.test.ts runs the ASG's.
    {
      name: "GET /api/execution/incidents/{id}/foto",
      method: "GET",
      path: (b) => `/api/execution/incidents/${incidentOf(b)}/foto`,
      control: false,
    },
    {
      name: "POST /api/execution/incidents/{id}/resolve",
      method: "POST",
      path: (b) => `/api/execution/incidents/${incidentOf(b)}/resolve`,
      body: () => {
        const form = new FormData();
        form.set("nota", "Invasor");
        return form;
      },
      control: false,
    },
  ];
}

/** Routes that take ids, called by a company-level administrator with another main company's ids. */
export const OTHER_TENANT_ROUTES: ScopedRoute[] = [
  ...exportJobRoutes(),
  ...incidentRoutes(),
  ...inspectionRoutes(),
  ...checklistRoutes(),
  {
    name: "PUT /api/users {userId}",
    method: "PUT",
    path: () => "/api/users",
    body: (target) => ({ userId: target.userId, nome: "Invasor", telefone: "85988887777", ativo: true }),
  },
  {
    name: "PUT /api/users {userId, password}",
    method: "PUT",
    path: () => "/api/users",
    body: (target) => ({
      userId: target.userId,
      nome: "Invasor",
      telefone: "85988887777",
      ativo: false,
      password: "invasor1",
    }),
    // With the caller's own id this is a self-inactivation (400), which the control would not tell apart.
    control: false,
  },
  {
    name: "PATCH /api/users/avatar {user_id}",
    method: "PATCH",
    path: () => "/api/users/avatar",
    body: (target) => pngFile(target.userId),
  },
  {
    name: "GET /api/empresas/filiais?companyId",
    method: "GET",
    path: (b) => `/api/empresas/filiais?companyId=${b.companyId}`,
  },
  ...catalogueRoutes(),
  ...environmentRoutes(),
  ...activityDetailRoutes(),
  ...agendaRoutes(),
  ...reportRoutes(),
  ...legacyRoutes(),
  ...auditRoutes(),
  ...historyAndExecutionRoutes(),
  ...photoRoutes(),
  {
    // The spreadsheet importer (docs/environments.md 'Importing environments'): the branch is checked before the file.
    name: "POST /api/environments/import {companyId}",
    method: "POST",
    path: () => "/api/environments/import",
    body: (b) => {
      const form = new FormData();
      const csv = "Nome do ambiente;Categoria;Setor;Andar;Riscos;Procedimentos obrigatórios;Procedimentos opcionais\n";
      form.set("file", new File([`${csv}Invasor importado;Sala;UTI;Térreo;Físico;Limpar piso;\n`], "ambientes.csv"));
      form.set("companyId", String(b.branchId));
      return form;
    },
  },
  // Branches and main companies (tests/api/branches.test.ts, companies.test.ts): the id is checked before the
  // master-CPF rule and, on PUT /api/empresas, before the role, so another tenant's id is 404 for these callers too.
  {
    name: "GET /api/empresas/filiais?companyId&page (paged)",
    method: "GET",
    path: (b) => `/api/empresas/filiais?companyId=${b.companyId}&page=1&q=a`,
  },
  {
    name: "POST /api/empresas/saveEmpresaFilial {Id_Empresas}",
    method: "POST",
    path: () => "/api/empresas/saveEmpresaFilial",
    body: (b) => ({
      NOME: "Invasor filial",
      CNPJ: "11222333000181",
      ENDERECO: "Rua",
      NUMERO: "1",
      Id_Empresas: b.companyId,
    }),
  },
  {
    name: "PUT /api/empresas/updateEmpresaFilial {ID, Id_Empresas}",
    method: "PUT",
    path: () => "/api/empresas/updateEmpresaFilial",
    body: (b) => branchEdit(b.branchId, b.companyId, "Invasor filial 2"),
    // With the caller's own ids the other company's administrator would rename its first branch, which later tests
    // look up by name.
    control: false,
  },
  {
    name: "PUT /api/empresas/updateEmpresaFilial {ID}",
    method: "PUT",
    path: () => "/api/empresas/updateEmpresaFilial",
    body: (b, own) => branchEdit(b.branchId, own.companyId, "Invasor filial 4"),
    control: false,
  },
  {
    name: "PUT /api/empresas/updateEmpresaFilial {own ID, Id_Empresas}",
    method: "PUT",
    path: () => "/api/empresas/updateEmpresaFilial",
    body: (b, own) => branchEdit(own.branchId, b.companyId, "Invasor filial 3"),
    control: false,
  },
  // Pre-registered CPFs (tests/api/pre-registered-cpfs.test.ts): the company and the branch are checked before the
  // CPF, so a CPF taken by a control call is still 404 here. The status change takes CPFs, not ids; its other-tenant
  // 404 is tested there.
  {
    name: "GET /api/empresas/funcionarios/{companyId}",
    method: "GET",
    path: (b) => `/api/empresas/funcionarios/${b.companyId}`,
  },
  {
    name: "GET /api/empresas/funcionarios/{companyId}?q (paged)",
    method: "GET",
    path: (b) => `/api/empresas/funcionarios/${b.companyId}?q=a&size=0`,
  },
  {
    name: "POST /api/empresas/saveFuncionarios {idEmpresa, idEmpresaFilial}",
    method: "POST",
    path: () => "/api/empresas/saveFuncionarios",
    body: (b) => ({ cpf: "77123456009", idEmpresa: b.companyId, idEmpresaFilial: b.branchId, roleId: 5 }),
  },
  {
    name: "POST /api/empresas/saveFuncionarios {own idEmpresa, idEmpresaFilial}",
    method: "POST",
    path: () => "/api/empresas/saveFuncionarios",
    body: (b, own) => ({ cpf: "77123456190", idEmpresa: own.companyId, idEmpresaFilial: b.branchId, roleId: 5 }),
  },
  {
    name: "POST /api/empresas/saveFuncionarios {idEmpresa, own idEmpresaFilial}",
    method: "POST",
    path: () => "/api/empresas/saveFuncionarios",
    body: (b, own) => ({
      cpf: cpfWithCheckDigits("771000300"),
      idEmpresa: b.companyId,
      idEmpresaFilial: own.branchId,
      roleId: 5,
    }),
  },
  {
    name: "POST /api/empresas/saveCSVFuncionarios {idEmpresa, idEmpresaFilial}",
    method: "POST",
    path: () => "/api/empresas/saveCSVFuncionarios",
    body: (b) => cpfCsvUpload(b.companyId, b.branchId, "77123456270"),
  },
  {
    name: "POST /api/empresas/saveCSVFuncionarios {own idEmpresa, idEmpresaFilial}",
    method: "POST",
    path: () => "/api/empresas/saveCSVFuncionarios",
    body: (b, own) => cpfCsvUpload(own.companyId, b.branchId, "77123456351"),
  },
  {
    name: "POST /api/empresas/saveCSVFuncionarios {idEmpresa, own idEmpresaFilial}",
    method: "POST",
    path: () => "/api/empresas/saveCSVFuncionarios",
    body: (b, own) => cpfCsvUpload(b.companyId, own.branchId, cpfWithCheckDigits("771000301")),
  },
  { name: "GET /api/empresas/{companyId}", method: "GET", path: (b) => `/api/empresas/${b.companyId}` },
  {
    name: "GET /api/empresas/quadros?companyId",
    method: "GET",
    path: (b) => `/api/empresas/quadros?companyId=${b.companyId}`,
  },
  {
    name: "PUT /api/empresas {id}",
    method: "PUT",
    path: () => "/api/empresas",
    body: (b) => ({
      id: b.companyId,
      nome: "Invasor empresa",
      cnpj: "11222333000181",
      endereco: "Rua",
      numero: "1",
      bairro: "Centro",
      cidade: "Fortaleza",
      ativo: false,
      max_number_users: 50,
      quadroIds: [1],
    }),
  },
  // Users and their names (tests/api/users.test.ts, users-role-matrix.test.ts).
  { name: "GET /api/allUsers/{companyId}", method: "GET", path: (b) => `/api/allUsers/${b.companyId}` },
  {
    name: "GET /api/allUsers/{companyId}?q (paged)",
    method: "GET",
    path: (b) => `/api/allUsers/${b.companyId}?q=a&size=0`,
  },
  ...USER_LEVELS.map((level): ScopedRoute => ({
    name: `POST /api/empresas/${level.create} {${level.branch ? "filiaId" : "companyId"}}`,
    method: "POST",
    path: () => `/api/empresas/${level.create}`,
    body: (b) => ({
      nome: "Invasor",
      email: `invasor-${level.create}-${b.companyId}@invasor.test`,
      cpf: INVADER_CPFS[level.create],
      dataNascimento: "01/01/1990",
      telefone: "85988887777",
      password: "invasor1",
      ...(level.branch ? { filiaId: b.branchId } : { companyId: b.companyId }),
    }),
    // With the caller's own ids the user would be created, and the next run of the same e-mail would be a 409.
    control: false,
  })),
  ...USER_LEVELS.filter((level) => level.transform).flatMap((level): ScopedRoute[] => [
    {
      name: `POST /api/empresas/${level.transform} {userId}`,
      method: "POST",
      path: () => `/api/empresas/${level.transform}`,
      body: (b, own) => ({
        userId: b.userId,
        ...(level.branch ? { filialId: own.branchId } : { companyId: own.companyId }),
      }),
      // The caller's own id is their own level: a 400, not a 404, which the control cannot tell from a pass.
      control: false,
    },
    {
      name: `POST /api/empresas/${level.transform} {${level.branch ? "filialId" : "companyId"}}`,
      method: "POST",
      path: () => `/api/empresas/${level.transform}`,
      body: (b, own) => ({
        userId: own.userId,
        ...(level.branch ? { filialId: b.branchId } : { companyId: b.companyId }),
      }),
      control: false,
    },
  ]),
  { name: "GET /api/nameUser?userId", method: "GET", path: (b) => `/api/nameUser?userId=${b.userId}` },
  {
    name: "POST /api/nameUser {userId}",
    method: "POST",
    path: () => "/api/nameUser",
    body: (b) => ({ userId: b.userId, name: `Invasor ${Date.now()}` }),
  },
  {
    name: "PUT /api/nameUser {id}",
    method: "PUT",
    path: () => "/api/nameUser",
    body: (b) => ({ id: b.userNameId, name: `Invasor ${Date.now()}` }),
  },
  {
    name: "DELETE /api/nameUser/{id}",
    method: "DELETE",
    path: (b) => `/api/nameUser/${b.userNameId}`,
    // With the caller's own id the name would be gone for the next test.
    control: false,
  },
];

/**
 * Routes a branch-level user (coordinator of Filial Aldeota) calls with ids of another branch of the same company.
 * Catalogue and environment writes are not here: they answer 403 to branch-level users before any id is read.
 */
export const OTHER_BRANCH_ROUTES: ScopedRoute[] = [
  {
    name: "PUT /api/users {userId}",
    method: "PUT",
    path: () => "/api/users",
    body: (target) => ({ userId: target.userId, nome: "Invasor", telefone: "85988887777", ativo: true }),
  },
  {
    name: "PATCH /api/users/avatar {user_id}",
    method: "PATCH",
    path: () => "/api/users/avatar",
    body: (target) => pngFile(target.userId),
  },
  ...CATALOGUE_KINDS.flatMap((kind): ScopedRoute[] => {
    const base = `/api${CATALOGUES[kind].apiPath}`;
    return [
      { name: `GET ${base}?filialId`, method: "GET", path: (b) => `${base}?filialId=${b.branchId}` },
      { name: `GET ${base}?filialClientId`, method: "GET", path: (b) => `${base}?filialClientId=${b.branchId}` },
      {
        name: `GET ${base}?filialId&page (paged)`,
        method: "GET",
        path: (b) => `${base}?filialId=${b.branchId}&page=1&size=0`,
      },
      {
        name: `GET ${base}?ids`,
        method: "GET",
        path: (b, own) => `${base}?ids=${itemOf(own, CATALOGUES[kind].table)},${itemOf(b, CATALOGUES[kind].table)}`,
      },
    ];
  }),
  {
    name: "GET /api/environments?ids",
    method: "GET",
    path: (b, own) => `/api/environments?ids=${environmentOf(own)},${environmentOf(b)}`,
  },
  { name: "GET /api/environments?filialId", method: "GET", path: (b) => `/api/environments?filialId=${b.branchId}` },
  {
    name: "GET /api/environments?filialClientId",
    method: "GET",
    path: (b) => `/api/environments?filialClientId=${b.branchId}`,
  },
  {
    name: "GET /api/environments?filialId&q (paged)",
    method: "GET",
    path: (b) => `/api/environments?filialId=${b.branchId}&q=a&size=0`,
  },
  {
    name: "GET /api/environments/form/{companyId}",
    method: "GET",
    path: (b) => `/api/environments/form/${b.branchId}`,
  },
  { name: "GET /api/environments/{id}", method: "GET", path: (b) => `/api/environments/${environmentOf(b)}` },
  { name: "GET /api/allUsers/{companyId}", method: "GET", path: (b) => `/api/allUsers/${b.branchId}` },
  // Agendas (docs/scheduling.md): a branch-level user writes and reads in the own branch only.
  ...activityDetailRoutes().filter((route) => !route.name.includes("companyId")),
  ...agendaRoutes().filter((route) => !route.name.includes("companyId")),
  ...reportRoutes().filter((route) => !route.name.includes("companyId")),
  // The company field of the old-system calls is the coordinator's own company: only the branch-level ids are tried.
  ...legacyRoutes().filter((route) => !/idEmpresa|observacao\?id$/.test(route.name)),
  ...historyAndExecutionRoutes().filter((route) => !route.name.includes("companyId")),
  ...photoRoutes(),
  // An export job is its requester's alone: another branch's user's is 404 as another company's.
  ...exportJobRoutes(),
  // Incident kinds are the company's, not a branch's.
  ...inspectionRoutes().filter((route) => !route.name.endsWith("{tipoId}")),
  // The audit filters name rooms, people and catalogue items: another branch's are 404 as in a path.
  ...auditRoutes().filter((route) => !route.name.includes("companyId")),
  {
    name: "POST /api/empresas/asg {filiaId}",
    method: "POST",
    path: () => "/api/empresas/asg",
    body: (b) => ({
      nome: "Invasor",
      email: "invasor-filial@invasor.test",
      cpf: INVADER_CPFS.asg,
      dataNascimento: "01/01/1990",
      telefone: "85988887777",
      password: "invasor1",
      filiaId: b.branchId,
    }),
    control: false,
  },
  {
    name: "POST /api/empresas/transformToCoordenador {userId}",
    method: "POST",
    path: () => "/api/empresas/transformToCoordenador",
    body: (b, own) => ({ userId: b.userId, filialId: own.branchId }),
    control: false,
  },
  { name: "GET /api/nameUser?userId", method: "GET", path: (b) => `/api/nameUser?userId=${b.userId}` },
  {
    name: "PUT /api/nameUser {id}",
    method: "PUT",
    path: () => "/api/nameUser",
    body: (b) => ({ id: b.userNameId, name: "Invasor" }),
  },
  {
    name: "DELETE /api/nameUser/{id}",
    method: "DELETE",
    path: (b) => `/api/nameUser/${b.userNameId}`,
    control: false,
  },
];

/**
 * Id fields of the OpenAPI document ('METHOD path field', as the coverage check below names them) that hold no
 * tenant's row, with the reason. Every other id field is tried in OTHER_TENANT_ROUTES, IGNORED_ID_ROUTES or
 * OWN_BOOKING_ROUTES.
 */
const NOT_TENANT_SCOPED: Record<string, string> = {
  "GET /api/info/ambiente/{id} path:id":
    "public by design: the page a room's QR code opens shows any live room's day, names and times only " +
    "(spec 001 §2.14; tests/api/room-page.test.ts)",
  "POST /api/info/ambiente/{id}/avaliacao path:id":
    "public by design: anyone who scans a room's QR code may rate it (issue 28; tests/api/incidents.test.ts)",
  "POST /api/info/ambiente/{id}/relato path:id":
    "public by design: anyone who scans a room's QR code may report a problem; the kind must be the room's " +
    "company's (issue 28; tests/api/incidents.test.ts)",
  "POST /api/empresas/saveFuncionarios body:roleId": "an access level of spec 000 §6, the same for every company",
  "POST /api/empresas body:quadroIds": "the default boards (GET /api/quadroPadrao) every company chooses from",
  "PUT /api/empresas body:quadroIds": "the default boards (GET /api/quadroPadrao) every company chooses from",
};

/** A route whose answer to another tenant's id is not 404: its exact status, and what the answer must show. */
export type ExpectedRoute = ScopedRoute & {
  status: number;
  /** Checks the answer's body (and, where the call wrote, the caller's own rows). */
  check: (body: any, target: Target, own: Target) => Promise<void> | void;
};

/** The nested ids of an agenda's periodicity (spec 001 §3), each with the target's where `from` says, else none. */
function periodicityIds(target: Target, from: "periodicityBranch" | "revisionBranch" | "periodicityId" | "revisionId") {
  const fixture = fixtureOf(target);
  return {
    ...(from === "periodicityBranch" ? { Id_EmpresasFilial: target.branchId } : {}),
    ...(from === "periodicityId" ? { ID: fixture.periodicityId } : {}),
    Revisoes: [
      {
        HORA_INICIAL: "23:00",
        HORA_FINAL: "23:30",
        ...(from === "revisionBranch" ? { Id_EmpresasFilial: target.branchId } : {}),
        ...(from === "revisionId" ? { ID: fixture.revisionId } : {}),
      },
    ],
  };
}

/** The own agenda's periodicity and revisions after a write: still its own, in its own branch. */
async function expectOwnPeriodicity(agendaId: number, own: Target) {
  const agenda = await t.db
    .selectFrom("agendas as a")
    .innerJoin("periodicities as p", "p.id", "a.periodicity_id")
    .select(["p.id", "p.branch_id"])
    .where("a.id", "=", agendaId)
    .executeTakeFirstOrThrow();
  expect(agenda.branch_id).toBe(own.branchId);
  const revisions = await t.db
    .selectFrom("revisions")
    .select(["branch_id", "hora_inicial"])
    .where("periodicity_id", "=", agenda.id)
    .execute();
  expect(revisions).toEqual([{ branch_id: own.branchId, hora_inicial: "23:00:00" }]);
}

/**
 * Routes that send another tenant's id in a field the API does not take from the caller: an agenda's nested ids are
 * taken from the agenda itself (api/domain/schedule-payloads.ts). Each answers its own success and changes nothing of
 * the other tenant. (List filters are ids like any other: 404, in OTHER_TENANT_ROUTES.)
 */
export const IGNORED_ID_ROUTES: ExpectedRoute[] = [
  ...(["periodicityBranch", "revisionBranch"] as const).map((from): ExpectedRoute => ({
    name: `POST /api/agendas/v2/saveAgenda own ids {Periodicidade ${from}}`,
    method: "POST",
    path: () => "/api/agendas/v2/saveAgenda",
    body: (b, own) => {
      const item = agendaItemBody(own, own, []);
      return [{ ...item, Id_Users: asgOf(own), Periodicidade: { ...item.Periodicidade, ...periodicityIds(b, from) } }];
    },
    status: 201,
    check: (body, _b, own) => expectOwnPeriodicity(body[0].ID, own),
  })),
  ...(["periodicityBranch", "revisionBranch", "periodicityId", "revisionId"] as const).map((from): ExpectedRoute => ({
    name: `PUT /api/agendas/updateAgenda own ids {Periodicidade ${from}}`,
    method: "PUT",
    path: () => "/api/agendas/updateAgenda",
    body: (b, own) => {
      const update = agendaUpdateBody(own, own, own, []);
      return {
        ...update,
        Id_Users: asgOf(own),
        Periodicidade: { ...update.Periodicidade, ...periodicityIds(b, from) },
      };
    },
    status: 200,
    check: (_body, _b, own) => expectOwnPeriodicity(agendaOf(own), own),
  })),
];

/**
 * An ASG per branch that has an agenda fixture (Limpa Bem Serviços has none in the demo data), written in beforeAll:
 * the agendas the ignored-id routes save or update are otherwise valid only with one.
 */
const asgFixtures = new Map<number, number>();
const asgOf = (target: Target) => asgFixtures.get(target.branchId) ?? 0;

async function addAsgFixture(db: Kysely<DB>, target: Target) {
  const { id } = await db
    .insertInto("users")
    .values({
      email: `asg-${target.branchId}@tenancy.test`,
      nome: `ASG da filial ${target.branchId}`,
      cpf: cpfWithCheckDigits(String(772_000_000 + target.branchId)),
      telefone: "85988887777",
      role_id: 5,
      company_id: target.companyId,
      branch_id: target.branchId,
      password_hash: "não entra",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  asgFixtures.set(target.branchId, id);
}

/** A booking of Hospital Boa Saúde's ASG, started, for OWN_BOOKING_ROUTES (made in beforeAll). */
let asgBookingId = 0;

/**
 * The execution calls act on the caller's own bookings only, so another tenant's id in their body is tried by the
 * ASG on a booking of their own (another tenant's booking ids are tried in OTHER_TENANT_ROUTES).
 */
export const OWN_BOOKING_ROUTES: ExpectedRoute[] = [
  {
    name: "POST /api/execution/bookings/{own id}/procedures {procedureId}",
    method: "POST",
    path: () => `/api/execution/bookings/${asgBookingId}/procedures`,
    body: (b) => procedureUpload(itemOf(b, "procedures")),
    // An id the caller may not read is 404 as everywhere (docs/security.md); a procedure of the caller's own branch
    // that is not the room's stays 400 (tests/api/execution.test.ts). Every kind of id, tried with a field session:
    // tests/api/field-execution.test.ts 'a field session … on ids of another company or branch'.
    status: 404,
    check: (body) => expect(body).toEqual({ message: "Procedimento não encontrado" }),
  },
];

export async function targetOf(
  db: Kysely<DB>,
  where: { company: string; branch?: string; userEmail: string },
): Promise<Target> {
  const company = await companyId(db, where.company);
  const branch = where.branch
    ? await branchId(db, where.branch)
    : (
        await db
          .selectFrom("branches")
          .select("id")
          .where("company_id", "=", company)
          .where("ativo", "=", true)
          .orderBy("id")
          .executeTakeFirstOrThrow()
      ).id;
  const user = await db
    .selectFrom("users")
    .select("id")
    .where("email", "=", where.userEmail)
    .where("company_id", "=", company)
    .executeTakeFirstOrThrow();
  const first = async (table: "sectors" | "risks" | "procedures" | "categories" | "environments") =>
    (
      await db
        .selectFrom(table)
        .select("id")
        .where("branch_id", "=", branch)
        .where("deleted_at", "is", null)
        .orderBy("id")
        .executeTakeFirst()
    )?.id ?? null;
  const userName = await db
    .selectFrom("user_names")
    .select("id")
    .where("user_id", "=", user.id)
    .orderBy("id")
    .executeTakeFirstOrThrow();
  return {
    companyId: company,
    branchId: branch,
    userId: user.id,
    userNameId: userName.id,
    sectorId: await first("sectors"),
    riskId: await first("risks"),
    procedureId: await first("procedures"),
    categoryId: await first("categories"),
    environmentId: await first("environments"),
    incidentId:
      (
        await db
          .selectFrom("incidents")
          .select("id")
          .where("company_id", "=", company)
          .$if(where.branch !== undefined, (qb) => qb.where("branch_id", "=", branch))
          .orderBy("id")
          .executeTakeFirst()
      )?.id ?? null,
    incidentKindId: (
      await db
        .selectFrom("incident_kinds")
        .select("id")
        .where("company_id", "=", company)
        .orderBy("id")
        .executeTakeFirstOrThrow()
    ).id,
    checklistId:
      (await db.selectFrom("checklists").select("id").where("branch_id", "=", branch).orderBy("id").executeTakeFirst())
        ?.id ?? null,
    ...(await failedItemOf(db, branch)),
    exportJobId:
      (await db.selectFrom("export_jobs").select("id").where("user_id", "=", user.id).orderBy("id").executeTakeFirst())
        ?.id ?? null,
  };
}

/** A demo inspection of the branch with a 'Não conforme' item that opened no incident yet. */
async function failedItemOf(db: Kysely<DB>, branch: number) {
  const row = await db
    .selectFrom("inspection_answers as a")
    .innerJoin("inspections as x", "x.id", "a.inspection_id")
    .select(["x.id", "a.item_id"])
    .where("x.branch_id", "=", branch)
    .where("a.resposta", "=", "nao_conforme")
    .where("a.incident_id", "is", null)
    .orderBy("x.id")
    .orderBy("a.item_id")
    .executeTakeFirst();
  return { inspectionId: row?.id ?? null, inspectionItemId: row?.item_id ?? null };
}

/**
 * The columns that tie a row to a company, most direct first: a table joins the snapshot through the first it has
 * (new tables join in by themselves), so rows without a company_id (periodicities, revisions, user names, history,
 * an environment's risks and procedures, sessions) are compared too.
 */
const OWNER_COLUMNS = {
  company_id: (company: number) => sql`= ${company}`,
  branch_id: (company: number) => sql`in (select id from branches where company_id = ${company})`,
  environment_id: (company: number) => sql`in (select id from environments where company_id = ${company})`,
  booking_id: (company: number) => sql`in (select id from bookings where company_id = ${company})`,
  periodicity_id: (company: number) =>
    sql`in (select id from periodicities where branch_id in (select id from branches where company_id = ${company}))`,
  user_id: (company: number) => sql`in (select id from users where company_id = ${company})`,
} as const;

/** Every row of a company, in every table tied to it by OWNER_COLUMNS, and the company's own row. */
async function companyRows(api: typeof t, company: number) {
  const { rows: columns } = await sql<{ table_name: string; column_name: keyof typeof OWNER_COLUMNS }>`
    select table_name, column_name from information_schema.columns
    where table_schema = current_schema() and column_name in (${sql.join(Object.keys(OWNER_COLUMNS))})
    order by table_name`.execute(api.db);
  const order = Object.keys(OWNER_COLUMNS);
  const owner = new Map<string, keyof typeof OWNER_COLUMNS>();
  for (const { table_name, column_name } of columns) {
    const known = owner.get(table_name);
    if (!known || order.indexOf(column_name) < order.indexOf(known)) owner.set(table_name, column_name);
  }
  const snapshot: Record<string, unknown[]> = {};
  for (const [table, column] of [...owner].sort()) {
    const { rows } =
      await sql`select * from ${sql.table(table)} where ${sql.ref(column)} ${OWNER_COLUMNS[column](company)}`.execute(
        api.db,
      );
    snapshot[table] = rows.map((row: unknown) => JSON.stringify(row)).sort();
  }
  const { rows } = await sql`select * from companies where id = ${company}`.execute(api.db);
  snapshot.companies = rows.map((row: unknown) => JSON.stringify(row));
  return snapshot;
}

function send(route: ScopedRoute, target: Target, own: Target, token: string) {
  const body = route.body?.(target, own);
  return t.call(route.method, route.path(target, own), {
    token,
    ...(body instanceof FormData ? { form: body } : body === undefined ? {} : { json: body }),
  });
}

const t = useTestApi();

beforeAll(async () => {
  await addExportFixtures(t.db, t.storageDir);
  for (const [company, userEmail] of [
    [COMPANY_A, "admin@demo.com.br"],
    [COMPANY_B, "outra@demo.com.br"],
  ]) {
    const target = await targetOf(t.db, { company, userEmail });
    await addAgendaFixture(t.db, target);
    await addAsgFixture(t.db, target);
    await addPhotoFixture(t.db, target, t.storageDir);
  }
  const aldeota = { company: COMPANY_A, branch: "Filial Aldeota", userEmail: "coordenador@demo.com.br" };
  await addAgendaFixture(t.db, await targetOf(t.db, aldeota));
  await addPhotoFixture(t.db, await targetOf(t.db, aldeota), t.storageDir);
  const messejana = { company: COMPANY_A, branch: "Filial Messejana", userEmail: "bruno@demo.com.br" };
  await addAgendaFixture(t.db, await targetOf(t.db, messejana));
  await addPhotoFixture(t.db, await targetOf(t.db, messejana), t.storageDir);
  const asg = await targetOf(t.db, { ...aldeota, userEmail: "asg@demo.com.br" });
  asgBookingId = (await insertAgenda(t.db, asg, { nome: "ASG", started: true })).bookingId;
});

/** One call of an ExpectedRoute: its status, its answer, and the other tenant's rows as they were. */
async function expectAnswered(route: ExpectedRoute, target: Target, own: Target, token: string) {
  const before = await companyRows(t, target.companyId);
  const answer = await send(route, target, own, token);
  expect(answer.status, JSON.stringify(answer.body)).toBe(route.status);
  await route.check(answer.body, target, own);
  expect(await companyRows(t, target.companyId)).toEqual(before);
}

describe.each([
  { caller: "admin@demo.com.br", own: COMPANY_A, other: COMPANY_B, otherUser: "outra@demo.com.br" },
  { caller: "outra@demo.com.br", own: COMPANY_B, other: COMPANY_A, otherUser: "principal@demo.com.br" },
])("$caller ($own) with ids of $other", ({ caller, own, other, otherUser }) => {
  let token: string;
  beforeAll(async () => {
    token = await t.signIn(caller);
  });
  const ownTarget = () => targetOf(t.db, { company: own, userEmail: caller });

  for (const route of OTHER_TENANT_ROUTES) {
    test(`${route.name} answers 404 and changes nothing`, async () => {
      const target = await targetOf(t.db, { company: other, userEmail: otherUser });
      const before = await companyRows(t, target.companyId);
      const answer = await send(route, target, await ownTarget(), token);
      expect(answer.status, JSON.stringify(answer.body)).toBe(404);
      expect(answer.body.message).not.toBe("Rota não encontrada");
      expect(JSON.stringify(answer.body)).not.toMatch(/Invasor|@demo/);
      expect(await companyRows(t, target.companyId)).toEqual(before);
    });
  }

  for (const route of IGNORED_ID_ROUTES) {
    test(`${route.name} answers ${route.status}, as if the other tenant's id were not there`, async () => {
      const target = await targetOf(t.db, { company: other, userEmail: otherUser });
      await expectAnswered(route, target, await ownTarget(), token);
    });
  }

  test("control: the same calls with the caller's own ids are not 404", async () => {
    for (const route of OTHER_TENANT_ROUTES.filter((entry) => entry.control !== false)) {
      // Looked up again for each call: a control may have removed the item the previous one used.
      const mine = await ownTarget();
      const answer = await send(route, mine, mine, token);
      expect(answer.status, `${route.name}: ${JSON.stringify(answer.body)}`).not.toBe(404);
      expect(answer.status, route.name).toBeLessThan(500);
    }
    // A few hundred calls in a row: room for a machine shared with other test files.
  }, 90_000);
});

describe("coordenador@demo.com.br (Filial Aldeota) with ids of Filial Messejana", () => {
  let token: string;
  beforeAll(async () => {
    token = await t.signIn("coordenador@demo.com.br");
  });
  const ownTarget = () =>
    targetOf(t.db, { company: COMPANY_A, branch: "Filial Aldeota", userEmail: "coordenador@demo.com.br" });

  for (const route of OTHER_BRANCH_ROUTES) {
    test(`${route.name} answers 404 and changes nothing`, async () => {
      const target = await targetOf(t.db, {
        company: COMPANY_A,
        branch: "Filial Messejana",
        userEmail: "bruno@demo.com.br",
      });
      const before = await companyRows(t, target.companyId);
      const answer = await send(route, target, await ownTarget(), token);
      expect(answer.status, JSON.stringify(answer.body)).toBe(404);
      expect(answer.body.message).not.toBe("Rota não encontrada");
      expect(await companyRows(t, target.companyId)).toEqual(before);
    });
  }

  test("control: the same calls with ids of the own branch are not 404", async () => {
    for (const route of OTHER_BRANCH_ROUTES.filter((entry) => entry.control !== false)) {
      const mine = await ownTarget();
      const answer = await send(route, mine, mine, token);
      expect(answer.status, `${route.name}: ${JSON.stringify(answer.body)}`).not.toBe(404);
      expect(answer.status, route.name).toBeLessThan(500);
    }
  });
});

describe("asg@demo.com.br (Hospital Boa Saúde) on a booking of their own with ids of Limpa Bem Serviços", () => {
  for (const route of OWN_BOOKING_ROUTES) {
    test(`${route.name} answers ${route.status} and changes nothing`, async () => {
      const token = await t.signIn("asg@demo.com.br");
      const target = await targetOf(t.db, { company: COMPANY_B, userEmail: "outra@demo.com.br" });
      const own = await targetOf(t.db, {
        company: COMPANY_A,
        branch: "Filial Aldeota",
        userEmail: "asg@demo.com.br",
      });
      const history = () => t.db.selectFrom("history").select("id").where("booking_id", "=", asgBookingId).execute();
      const before = await history();
      await expectAnswered(route, target, own, token);
      expect(await history()).toEqual(before);
    });
  }
});

describe("the route lists cover the API", () => {
  type Schema = {
    $ref?: string;
    type?: string | string[];
    properties?: Record<string, Schema>;
    items?: Schema;
    allOf?: Schema[];
    anyOf?: Schema[];
    oneOf?: Schema[];
  };
  type Operation = {
    parameters?: { in: string; name: string; description?: string; schema?: Schema & { description?: string } }[];
    requestBody?: { content: Record<string, { schema: Schema }> };
  };
  type OpenApi = {
    paths: Record<string, Record<string, Operation>>;
    components?: { schemas?: Record<string, Schema> };
  };

  /** Field names that hold ids: by their look, plus the environment payload's lists of catalogue ids. */
  const ID_LIKE = /^(id|ID|ids)$|Ids?$|_ids?$|^Id_|^id[A-Z_]/;
  const IDS_BY_NAME = new Set(["empresa", "riscos", "procedures", "proceduresNotMandatory"]);
  const isIdField = (field: string) => {
    const leaf = field
      .slice(field.indexOf(":") + 1)
      .split(".")
      .pop()!;
    return ID_LIKE.test(leaf) || IDS_BY_NAME.has(leaf);
  };

  /** Sentinel ids (never sent): a route's request built from them shows which fields carry the target's ids. */
  const sentinel = (base: number): Target => ({
    companyId: base + 1,
    branchId: base + 2,
    userId: base + 3,
    userNameId: base + 4,
    sectorId: base + 5,
    riskId: base + 6,
    procedureId: base + 7,
    categoryId: base + 8,
    environmentId: base + 9,
    incidentId: base + 14,
    incidentKindId: base + 15,
    checklistId: base + 16,
    inspectionId: base + 17,
    inspectionItemId: base + 18,
    exportJobId: base + 19,
  });
  const FOREIGN = sentinel(900_000);
  const OWN = sentinel(800_000);
  agendaFixtures.set(FOREIGN.branchId, {
    agendaId: 900_010,
    bookingId: 900_011,
    periodicityId: 900_012,
    revisionId: 900_013,
  });
  agendaFixtures.set(OWN.branchId, {
    agendaId: 800_010,
    bookingId: 800_011,
    periodicityId: 800_012,
    revisionId: 800_013,
  });
  const FOREIGN_IDS = new Set([...Object.values(FOREIGN), ...Object.values(fixtureOf(FOREIGN))].map(String));

  /** Every leaf of a JSON value or schema as 'a.b', arrays as '[]' ('[].Id_Users' in saveAgenda's array body). */
  function leaves(value: unknown, name: string, out: Map<string, string[]>) {
    if (Array.isArray(value)) for (const item of value) leaves(item, `${name}[]`, out);
    else if (value !== null && typeof value === "object" && !(value instanceof Blob)) {
      for (const [key, item] of Object.entries(value)) leaves(item, name ? `${name}.${key}` : key, out);
    } else {
      const field = name.replace(/(\[\])+$/, "");
      out.set(field, [...(out.get(field) ?? []), String(value)]);
    }
    return out;
  }

  function schemaLeaves(doc: OpenApi, schema: Schema, name: string, out: Set<string>, depth = 0) {
    if (depth > 8) return out;
    if (schema.$ref)
      return schemaLeaves(doc, doc.components!.schemas![schema.$ref.split("/").pop()!], name, out, depth);
    for (const part of [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) {
      schemaLeaves(doc, part, name, out, depth + 1);
    }
    if (schema.items) schemaLeaves(doc, schema.items, `${name}[]`, out, depth + 1);
    for (const [key, property] of Object.entries(schema.properties ?? {})) {
      schemaLeaves(doc, property, name ? `${name}.${key}` : key, out, depth + 1);
    }
    if (!schema.items && !schema.properties && name) out.add(name.replace(/(\[\])+$/, ""));
    return out;
  }

  /**
   * Query filters whose names do not look like ids (`tipo`, `ambientes`): an integer that is no paging count, or a
   * parameter its description calls ids (or an id, last).
   */
  const PAGING = new Set(["page", "size", "limit"]);
  const isIdFilter = (parameter: NonNullable<Operation["parameters"]>[number]) =>
    parameter.in === "query" &&
    ((parameter.schema?.type === "integer" && !PAGING.has(parameter.name)) ||
      /\bids\b|\bid$/.test(parameter.description ?? parameter.schema?.description ?? ""));

  /** The id fields of one operation: 'path:id', 'query:agendaId', 'body:[].Id_Users'. */
  function idFieldsOf(doc: OpenApi, operation: Operation) {
    const parameters = (operation.parameters ?? []).filter((p) => p.in === "path" || p.in === "query");
    const fields = [
      ...parameters.filter(isIdFilter).map((parameter) => `${parameter.in}:${parameter.name}`),
      ...[
        ...parameters.map((parameter) => `${parameter.in}:${parameter.name}`),
        ...Object.values(operation.requestBody?.content ?? {}).flatMap(({ schema }) =>
          [...schemaLeaves(doc, schema, "", new Set())].map((leaf) => `body:${leaf}`),
        ),
      ].filter(isIdField),
    ];
    return [...new Set(fields)];
  }

  /** The operation a route calls: the template matching its path, literal segments before parameters. */
  function operationOf(doc: OpenApi, route: ScopedRoute) {
    const pathname = new URL(route.path(FOREIGN, OWN), IN_PROCESS_ORIGIN).pathname;
    const matches = Object.keys(doc.paths).filter(
      (path) =>
        route.method.toLowerCase() in doc.paths[path] &&
        new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(pathname),
    );
    matches.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
    return matches[0];
  }

  /** The fields of a route's request that carry one of the target's (sentinel) ids. */
  function foreignFields(route: ScopedRoute, template: string) {
    const url = new URL(route.path(FOREIGN, OWN), IN_PROCESS_ORIGIN);
    const values = new Map<string, string[]>();
    const segments = url.pathname.split("/");
    template.split("/").forEach((segment, index) => {
      const parameter = /^\{(.+)\}$/.exec(segment)?.[1];
      if (parameter) values.set(`path:${parameter}`, [segments[index]]);
    });
    for (const [key, value] of url.searchParams) values.set(`query:${key}`, value.split(","));
    const body = route.body?.(FOREIGN, OWN);
    const bodyValues =
      body instanceof FormData
        ? new Map([...body.entries()].map(([key, value]) => [key, [typeof value === "string" ? value : ""]]))
        : leaves(body ?? {}, "", new Map());
    for (const [key, value] of bodyValues) values.set(`body:${key}`, value);
    return [...values].filter(([, list]) => list.some((value) => FOREIGN_IDS.has(value))).map(([field]) => field);
  }

  test("every id field of every operation is tried alone with another tenant's id (or excused)", async () => {
    const doc = (await t.get("/api/openapi.json")).body as OpenApi;
    const tried = new Set<string>();
    for (const route of [...OTHER_TENANT_ROUTES, ...IGNORED_ID_ROUTES, ...OWN_BOOKING_ROUTES]) {
      const template = operationOf(doc, route);
      if (!template) continue; // 'every listed route exists' names it
      // Only a route whose one foreign id is this field shows that this field, not another, is checked.
      const fields = foreignFields(route, template);
      if (fields.length === 1) tried.add(`${route.method} ${template} ${fields[0]}`);
    }
    const expected: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        for (const field of idFieldsOf(doc, operation)) expected.push(`${method.toUpperCase()} ${path} ${field}`);
      }
    }
    const missing = expected.filter((key) => !tried.has(key) && !(key in NOT_TENANT_SCOPED));
    expect(
      missing,
      "add a route to OTHER_TENANT_ROUTES sending another tenant's id in this field alone (or NOT_TENANT_SCOPED)",
    ).toEqual([]);
    expect(
      Object.keys(NOT_TENANT_SCOPED).filter((key) => !expected.includes(key)),
      "NOT_TENANT_SCOPED names a field the API does not have",
    ).toEqual([]);
  });

  test("the coverage check sees the fields a route sends", () => {
    // The check above is only as good as this reading of a request; one route of each kind, read back.
    const find = (name: string) => OTHER_TENANT_ROUTES.find((route) => route.name === name)!;
    expect(foreignFields(find("PUT /api/users {userId}"), "/api/users")).toEqual(["body:userId"]);
    expect(foreignFields(find("GET /api/nameUser?userId"), "/api/nameUser")).toEqual(["query:userId"]);
    expect(foreignFields(find("DELETE /api/nameUser/{id}"), "/api/nameUser/{id}")).toEqual(["path:id"]);
    expect(foreignFields(find("PATCH /api/users/avatar {user_id}"), "/api/users/avatar")).toEqual(["body:user_id"]);
    expect(foreignFields(find("POST /api/agendas/v2/saveAgenda {user}"), "/api/agendas/v2/saveAgenda")).toEqual([
      "body:[].Id_Users",
    ]);
    expect(isIdField("body:Periodicidade.Revisoes[].ID")).toBe(true);
    expect(isIdField("query:page")).toBe(false);
  });

  test("the database snapshot holds the rows tied to a company without a company_id column", async () => {
    const tables = Object.keys(await companyRows(t, await companyId(t.db, COMPANY_A)));
    expect(tables).toEqual(
      expect.arrayContaining(["companies", "periodicities", "revisions", "user_names", "history", "environment_risks"]),
    );
  });

  test("every listed route exists in the OpenAPI document", async () => {
    const doc = (await t.get("/api/openapi.json")).body as OpenApi;
    for (const route of [...OTHER_TENANT_ROUTES, ...OTHER_BRANCH_ROUTES, ...IGNORED_ID_ROUTES, ...OWN_BOOKING_ROUTES]) {
      expect(operationOf(doc, route), route.name).toBeDefined();
    }
  });
});

describe("resolveBranchFilter (api/auth/scope.ts)", () => {
  async function scopeFor(email: string) {
    const row = await selectUsers(t.db).where("users.email", "=", email).executeTakeFirstOrThrow();
    return scopeOf(toAuthUser(row));
  }

  async function expectNotFound(promise: Promise<unknown>) {
    const error = await promise.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
  }

  test("a company-level user: another company or its branches are 404, own branches resolve", async () => {
    const scope = await scopeFor("admin@demo.com.br");
    const a = await companyId(t.db, COMPANY_A);
    const b = await targetOf(t.db, { company: COMPANY_B, userEmail: "outra@demo.com.br" });
    const messejana = await branchId(t.db, "Filial Messejana");
    expect(scope).toEqual({ level: "company", companyId: a });

    await expectNotFound(resolveBranchFilter(t.db, scope, { companyId: b.companyId }));
    await expectNotFound(resolveBranchFilter(t.db, scope, { filialId: b.branchId }));
    await expectNotFound(resolveBranchFilter(t.db, scope, { filialClientId: b.branchId }));
    await expectNotFound(resolveBranchFilter(t.db, scope, { companyId: a, filialId: b.branchId }));
    await expectNotFound(resolveBranchFilter(t.db, scope, { filialId: 999_999 }));

    expect(await resolveBranchFilter(t.db, scope, {})).toEqual({ companyId: a });
    expect(await resolveBranchFilter(t.db, scope, { companyId: a })).toEqual({ companyId: a });
    expect(await resolveBranchFilter(t.db, scope, { filialId: -1 })).toEqual({ companyId: a });
    expect(await resolveBranchFilter(t.db, scope, { companyId: a, filialId: messejana })).toEqual({
      companyId: a,
      branchId: messejana,
    });
  });

  test("the other company's administrator is held to its own company the same way", async () => {
    const scope = await scopeFor("outra@demo.com.br");
    const b = await companyId(t.db, COMPANY_B);
    expect(scope).toEqual({ level: "company", companyId: b });
    await expectNotFound(resolveBranchFilter(t.db, scope, { companyId: await companyId(t.db, COMPANY_A) }));
    await expectNotFound(resolveBranchFilter(t.db, scope, { filialId: await branchId(t.db, "Filial Aldeota") }));
    expect(await resolveBranchFilter(t.db, scope, { filialId: await branchId(t.db, "Sede Recife") })).toEqual({
      companyId: b,
      branchId: await branchId(t.db, "Sede Recife"),
    });
  });

  test("a branch-level user (coordinator of Filial Aldeota) is held to the own branch", async () => {
    const scope = await scopeFor("coordenador@demo.com.br");
    const a = await companyId(t.db, COMPANY_A);
    const aldeota = await branchId(t.db, "Filial Aldeota");
    expect(scope).toEqual({ level: "branch", companyId: a, branchId: aldeota });

    await expectNotFound(resolveBranchFilter(t.db, scope, { filialId: await branchId(t.db, "Filial Messejana") }));
    await expectNotFound(resolveBranchFilter(t.db, scope, { filialId: await branchId(t.db, "Matriz Fortaleza") }));
    await expectNotFound(resolveBranchFilter(t.db, scope, { filialId: await branchId(t.db, "Sede Recife") }));
    await expectNotFound(resolveBranchFilter(t.db, scope, { companyId: await companyId(t.db, COMPANY_B) }));

    // Without a branch, or naming its own, it is narrowed to its branch; asking for the whole company does not widen it.
    expect(await resolveBranchFilter(t.db, scope, {})).toEqual({ companyId: a, branchId: aldeota });
    expect(await resolveBranchFilter(t.db, scope, { filialId: aldeota })).toEqual({ companyId: a, branchId: aldeota });
    expect(await resolveBranchFilter(t.db, scope, { companyId: a })).toEqual({ companyId: a, branchId: aldeota });
  });

  test("a user without a role is branch-level too; a client (roleId 7) is held to its client branch", async () => {
    const none = await scopeFor("semnivel@demo.com.br");
    expect(none.level).toBe("branch");
    await expectNotFound(resolveBranchFilter(t.db, none, { filialId: await branchId(t.db, "Filial Messejana") }));

    const client = await scopeFor("cliente@demo.com.br");
    const aldeota = await branchId(t.db, "Filial Aldeota");
    expect(client).toEqual({ level: "client", companyId: await companyId(t.db, COMPANY_A), branchId: aldeota });
    await expectNotFound(
      resolveBranchFilter(t.db, client, { filialClientId: await branchId(t.db, "Filial Messejana") }),
    );
    expect((await resolveBranchFilter(t.db, client, { filialClientId: aldeota })).branchId).toBe(aldeota);
  });
});
