/**
 * The load cases. Each runs against one server started on the seeded demo database.
 * To add one, append to CASES: a name, a path and, when the case needs data or a body, a setup.
 */
import {
  checkApiPage,
  checkWebPage,
  COMPANY_ID,
  ensureListData,
  PAGE_SIZE,
  SEARCH_MATCHES,
  SEARCH_TERM,
} from "./catalogues.ts";
import type { RequestSpec } from "./lib.ts";

export type BenchContext = {
  /** e.g. http://127.0.0.1:41234 */
  baseUrl: string;
  /** The server's DATA_DIR (PGlite); the server holds it open, so change data through HTTP, not the files. */
  dataDir: string;
  /** Signs in through the web form (cached per account) and returns the cookie pair, e.g. 'sessao=...'. */
  signIn(email?: string): Promise<string>;
  /** Signs in through the API (POST /api/sessions, cached per account) and returns the bearer token. */
  apiToken(email?: string): Promise<string>;
};

export type BenchCase = {
  name: string;
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Sign in as this demo account first and send its session cookie with every request. */
  account?: string;
  /** Status every response must have (default 200); anything else fails the run. */
  expectStatus?: number;
  /** Also measure a static file of the same size and content from public/ (default: true for GET). */
  compareStatic?: boolean;
  /** Runs once before the case: create data, build a body... Returned fields override the case's request. */
  setup?: (context: BenchContext) => Promise<Partial<RequestSpec> | void>;
  /** Checks the probe's decoded body (after setup, before the load); a returned message fails the run. */
  verify?: (body: Buffer, context: BenchContext) => Promise<string | undefined> | string | undefined;
};

/** The list cases: sorted by name descending, 20 a page, over the 5,000 sectors made by ensureListData. */
const DEEP_PAGE = 200;
const bearer = async (context: BenchContext) => ({ headers: { authorization: `Bearer ${await context.apiToken()}` } });
const apiList = (query: string) => `/api/setor?companyId=${COMPANY_ID}${query}&sort=nome&dir=desc&page=`;

export const CASES: BenchCase[] = [
  { name: "sign-in page", path: "/" },
  { name: "signed-in page (FAQ)", path: "/faq", account: "admin@demo.com.br" },
  {
    name: "list page, search (5,000 sectors)",
    path: `/setores?q=${SEARCH_TERM}&ordem=nome&dir=desc&tamanho=${PAGE_SIZE}`,
    account: "admin@demo.com.br",
    setup: async (context) => void (await ensureListData(context)),
    verify: async (body, context) => checkWebPage(body, (await ensureListData(context)).firstSearchPage),
  },
  {
    name: `list page, page ${DEEP_PAGE}, no search`,
    path: `/setores?ordem=nome&dir=desc&pagina=${DEEP_PAGE}&tamanho=${PAGE_SIZE}`,
    account: "admin@demo.com.br",
    compareStatic: false,
    setup: async (context) => void (await ensureListData(context)),
    verify: (body) => checkWebPage(body),
  },
  {
    name: "API list, search",
    path: `${apiList(`&q=${SEARCH_TERM}`)}1&size=${PAGE_SIZE}`,
    compareStatic: false,
    setup: async (context) => (await ensureListData(context), bearer(context)),
    verify: (body) => checkApiPage(body, { total: SEARCH_MATCHES, page: 1, search: SEARCH_TERM }),
  },
  {
    name: "API list, page 1, no search",
    path: `${apiList("")}1&size=${PAGE_SIZE}`,
    compareStatic: false,
    setup: async (context) => (await ensureListData(context), bearer(context)),
    verify: async (body, context) => checkApiPage(body, { total: (await ensureListData(context)).total, page: 1 }),
  },
  {
    name: `API list, page ${DEEP_PAGE}, no search`,
    path: `${apiList("")}${DEEP_PAGE}&size=${PAGE_SIZE}`,
    compareStatic: false,
    setup: async (context) => (await ensureListData(context), bearer(context)),
    verify: async (body, context) =>
      checkApiPage(body, { total: (await ensureListData(context)).total, page: DEEP_PAGE }),
  },
];
