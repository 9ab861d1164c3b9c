/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ['**/.*', '**/*.test.*'],
  serverModuleFormat: 'esm',
  serverDependenciesToBundle: [],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    // Off on purpose: Single Fetch encodes loader data with turbo-stream 2.x, which has a published advisory
    // that Remix 2 (end of life) will not take a fixed version of. Without it, data requests are plain JSON and
    // turbo-stream is not on any request path. SECURITY.md, testing/dependencies.test.ts.
    v3_singleFetch: false,
  },
};
