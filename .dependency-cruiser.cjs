/**
 * The layers of docs/architecture.md, checked on every `npm test` (npm run layers). A violation names
 * its rule and the import that breaks it. Tests are outside the check: they may reach any layer.
 */
// Modules that do I/O (files, sockets, processes, the database, log sinks, process metrics): lib/
// outside lib/http/ may not load them. A type-only import (erased at build) is allowed.
const IO_MODULES = [
  '^(node:)?(fs|fs/promises|net|http|https|http2|tls|dgram|dns|child_process|cluster|worker_threads|readline|repl|inspector|os|process|v8|vm)$',
  // npm packages: the bare name where a package is not installed (the rule tests' small trees), its
  // resolved path under node_modules otherwise (the real tree).
  '(^|node_modules/)(better-sqlite3|pino|prom-client|busboy)(/|$)',
];
const PURE_LIB = '^lib/(?!http/)';

module.exports = {
  forbidden: [
    {
      name: 'lib-imports-no-db-or-routes',
      comment:
        'lib/ holds pure rules: it never reaches the database, the routes or the process wiring (docs/architecture.md).',
      severity: 'error',
      from: { path: PURE_LIB },
      to: { path: '^(db|routes|cli)/|^(app|main)\\.ts$' },
    },
    {
      name: 'lib-does-no-io',
      comment:
        'lib/ outside lib/http/ is pure: no file, network, process or database module; take bytes and `now` as arguments.',
      severity: 'error',
      from: { path: PURE_LIB },
      to: { path: IO_MODULES, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'lib-uses-only-pure-http-parts',
      comment:
        "Pure lib/ may use the edge's error and request types and its address parsing, not the adapter, server, logger or metrics.",
      severity: 'error',
      from: { path: PURE_LIB },
      to: { path: '^lib/http/', pathNot: '^lib/http/(errors|types|client-address)\\.ts$' },
    },
    {
      name: 'lib-http-imports-no-db-or-routes',
      comment: 'The HTTP adapter knows requests and replies, not the services behind them.',
      severity: 'error',
      from: { path: '^lib/http/' },
      to: { path: '^(db|routes|cli)/|^(app|main)\\.ts$' },
    },
    {
      name: 'db-imports-no-routes',
      comment: 'db/ (queries and stateful services) answers routes, the CLI and MCP alike: it never imports a route.',
      severity: 'error',
      from: { path: '^db/' },
      to: { path: '^(routes|cli)/|^(app|main)\\.ts$' },
    },
    {
      name: 'no-cycles',
      comment: 'No import cycles, type-only imports included: a cycle hides which module is built first.',
      severity: 'error',
      from: { pathNot: '^tests/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|coverage)/' },
    parser: 'swc', // TypeScript 7 has no compiler API for dependency-cruiser's tsc parser; swc reads type imports too
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
