/**
 * Routes are Remix flat routes, one file per URL under app/routes/ (docs/decisions/005-routes-and-single-fetch.md).
 * The v3 future flags are on so the move to React Router 7 needs no rewrite.
 */
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
    v3_singleFetch: true,
  },
};
