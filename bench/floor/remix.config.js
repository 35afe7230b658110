/**
 * The framework floor (bench/README.md 'Scale'): a bare Remix app with the product's package versions and future
 * flags, built by the bench and served like the product (bench/floor/server.ts), so the bench can print how far
 * the product's pages are from what Remix itself costs.
 */
/** @type {import('@remix-run/dev').AppConfig} */
export default {
  serverModuleFormat: "esm",
  serverPlatform: "node",
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
