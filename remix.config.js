/**
 * The four catalogues (setores, riscos, procedimentos, categorias) are one set of route modules in app/catalogues/,
 * mounted once per kind under the signed-in layout. Every other route is a flat-routes file in app/routes/.
 */
const CATALOGUE_KINDS = ["setores", "riscos", "procedimentos", "categorias"];

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  serverPlatform: "node",
  serverDependenciesToBundle: [/^@brazilian-utils/],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: false,
  },
  async routes(defineRoutes) {
    const routes = defineRoutes((route) => {
      for (const kind of CATALOGUE_KINDS) {
        route(kind, "catalogues/layout.tsx", { id: `catalogue/${kind}` }, () => {
          route("", "catalogues/list.tsx", { index: true, id: `catalogue/${kind}/list` });
          route("cadastrar", "catalogues/register.tsx", { id: `catalogue/${kind}/register` });
          route(":id/editar", "catalogues/edit.tsx", { id: `catalogue/${kind}/edit` });
          route(":id/remover", "catalogues/remove.tsx", { id: `catalogue/${kind}/remove` });
          route("duplicar", "catalogues/duplicate.tsx", { id: `catalogue/${kind}/duplicate` });
        });
        route(`${kind}/exportar.xlsx`, "catalogues/export-xlsx.ts", { id: `catalogue/${kind}/export` });
        route(`${kind}/modelo.csv`, "catalogues/template-csv.ts", { id: `catalogue/${kind}/template` });
      }
    });
    // The catalogue pages nest in the signed-in layout (drawer, top bar); the downloads stand alone.
    for (const kind of CATALOGUE_KINDS) routes[`catalogue/${kind}`].parentId = "routes/_app";
    return routes;
  },
};
