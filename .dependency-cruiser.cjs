// The floors of the house and the directions imports may take between them, checked by `npm test`
// (testing/architecture.test.ts). A lower floor never imports a higher one; nothing imports in a circle.
//
//   server.ts                       composition: may use everything below
//   app/ (web)   cli/ (terminal)    surfaces for people
//   operations/adapters             HTTP edge, REST, MCP, OpenAPI, HTTP client
//   operations/server               handlers, invoke, pipeline, agent, services
//   operations/repo  operations/corpus
//   operations/content
//   operations/contract             the operation list: zod only
//
// Test support (testing/, *.test.ts, e2e/, bench/) may import anything; production code never imports it.
const floor = (name, path) => ({ name, path });
const floors = [
  floor('contract', '^operations/contract/'),
  floor('content', '^operations/content/'),
  floor('corpus', '^operations/corpus/'),
  floor('repo', '^operations/repo/'),
  floor('server', '^operations/server/'),
  floor('adapters', '^operations/adapters/'),
];

/** Each floor may import only the floors listed for it (and itself). */
const allowed = {
  contract: [],
  content: ['contract'],
  corpus: ['contract', 'content'],
  repo: ['contract', 'content'],
  server: ['contract', 'content', 'corpus', 'repo'],
  adapters: ['contract', 'content', 'corpus', 'repo', 'server'],
};

const notTest = '\\.test\\.tsx?$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other in a circle cannot be understood, tested or loaded one at a time.',
      from: {},
      to: { circular: true },
    },
    ...floors.map(({ name, path }) => ({
      name: `floor-${name}`,
      severity: 'error',
      comment: `operations/${name} may import only ${allowed[name].length ? allowed[name].join(', ') : 'zod'} among the operations' floors.`,
      from: { path, pathNot: notTest },
      to: {
        path: `^(operations/|app/|cli/|server\\.ts|testing/)`,
        pathNot: [path, ...allowed[name].map((other) => floors.find((f) => f.name === other).path)],
      },
    })),
    {
      name: 'contract-is-zod-only',
      severity: 'error',
      comment: 'The contract is loaded by the browser and the CLI: it may import zod and nothing else from npm.',
      from: { path: '^operations/contract/', pathNot: notTest },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'core'], pathNot: '^node_modules/zod/' },
    },
    {
      name: 'surfaces-do-not-reach-the-server-floor',
      severity: 'error',
      comment: 'The web app and the CLI use operations through the gateway and the HTTP client, never handlers or services directly (types aside).',
      from: { path: '^(app|cli)/', pathNot: notTest },
      to: { path: '^operations/(server|repo|corpus)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'surfaces-are-apart',
      severity: 'error',
      comment: 'The web app and the CLI are separate doors: neither imports the other.',
      from: { path: '^app/' },
      to: { path: '^cli/' },
    },
    {
      name: 'cli-is-not-web',
      severity: 'error',
      from: { path: '^cli/' },
      to: { path: '^app/' },
    },
    {
      name: 'production-does-not-import-test-support',
      severity: 'error',
      comment: 'Test support lives in testing/ and beside the tests; shipped code never depends on it.',
      from: { path: '^(operations|app|cli)/', pathNot: notTest },
      to: { path: ['^testing/', notTest, '^e2e/', '^bench/'] },
    },
    {
      name: 'only-the-composition-imports-server-ts',
      severity: 'error',
      comment: 'server.ts composes the service; only test support starts it.',
      from: { pathNot: ['^testing/', '^bench/', '^e2e/', notTest, '^server\\.ts$'] },
      to: { path: '^server\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^node_modules', '^build/', '^public/build/', '^\\.data', '^\\.scratch'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    moduleSystems: ['es6', 'cjs'],
  },
};
