/**
 * `node --import tsx --import ./bench/dummy-routes.ts server.ts` with BENCH_DUMMY_ROUTES=N: the built server bundle
 * (build/index.js) is loaded with N more pages in its route table, so the bench measures the product at the size
 * it will have (~150 routes) without writing route files. Each dummy page is a copy of `_app.$section` (the
 * 'under construction' page) at its own path, in both the server's routes and the browser manifest; none is ever
 * requested, they only make matching and the manifest work as a larger app's would.
 */
import { register } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const buildUrl = pathToFileURL(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "build", "index.js"),
).href;

const hook = `
export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  if (url.split("?")[0] !== ${JSON.stringify(buildUrl)}) return result;
  const source = String(result.source ?? "");
  const extra = \`
;(() => {
  const total = Number(process.env.BENCH_DUMMY_ROUTES || 0);
  const id = "routes/_app.$section";
  for (let n = 0; Object.keys(routes).length < total; n++) {
    const dummy = "routes/_app.bench-dummy-" + n;
    routes[dummy] = { ...routes[id], id: dummy, path: "tela-" + n + "/:id/editar" };
    assets_manifest_default.routes[dummy] = { ...assets_manifest_default.routes[id], id: dummy, path: "tela-" + n + "/:id/editar" };
  }
})();
\`;
  return { ...result, source: source + extra, shortCircuit: true };
}
`;

if (Number(process.env.BENCH_DUMMY_ROUTES ?? 0) > 0) {
  register(`data:text/javascript,${encodeURIComponent(hook)}`, import.meta.url);
}
