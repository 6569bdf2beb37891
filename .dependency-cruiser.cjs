/**
 * The layering of src/, checked by `npm run lint:layers` (scripts/lint-layers.mjs). Lower layers never
 * import higher ones:
 *
 *   domain  ←  store  ←  services  ←  http / realtime / jobs (the edges)  ←  app.ts  ←  main.ts
 *
 * No edge imports src/store: each reaches Redis through services (realtime too: it replays through
 * services/event-replay, follows the live announcements through services/live-events and counts upgrades
 * through services/upgrade-limits), and only the composition hands store objects to services.
 *
 * config.ts and logger.ts are shared by every layer above domain; src/demo is an HTTP client of the API,
 * built on src/client (the JSON client the demo, the bench and the tests share), which stands alone.
 * src/mcp (the MCP server, its own entry) is another client of the API: it uses the domain's request schemas
 * (a tool takes what the API takes), src/client, config and logger.
 * The runner also checks that src/domain carries no HTTP headers and no OpenAPI metadata
 * (`domain-knows-no-http`), which is about what a module says, not what it imports.
 */
const DOMAIN = '^src/domain/';
const STORE = '^src/store/';
const SERVICES = '^src/services/';
const HTTP = '^src/http/';
const REALTIME = '^src/realtime/';
const JOBS = '^src/jobs/';
const COMPOSITION = '^src/app\\.ts$';
const ENTRY = '^src/main\\.ts$';
const DEMO = '^src/demo/';
const CLIENT = '^src/client/';
const MCP = '^src/mcp/';

/** A rule that `from` may not import `to`. */
const forbid = (name, comment, from, to) => ({ name, comment, severity: 'error', from, to });

module.exports = {
  forbidden: [
    forbid(
      'domain-is-pure',
      'src/domain holds pure rules (schemas, types, calculations): it imports only itself and zod, no other layer, no Node module (no I/O) and nothing of HTTP.',
      { path: DOMAIN },
      { pathNot: [DOMAIN, '(^|/)node_modules/zod/'] },
    ),
    forbid(
      'store-below-services',
      'src/store (Redis) may import only src/domain, config and logger, never services, edges or the composition.',
      { path: STORE },
      { path: '^src/', pathNot: [DOMAIN, STORE, '^src/(config|logger)\\.ts$'] },
    ),
    forbid(
      'services-below-edges',
      'src/services (use cases) may import domain, store, config and logger, never an edge or the composition.',
      { path: SERVICES },
      { path: '^src/', pathNot: [DOMAIN, STORE, SERVICES, '^src/(config|logger)\\.ts$'] },
    ),
    forbid(
      'services-know-no-transport',
      'Use cases know nothing of HTTP or WebSockets.',
      { path: SERVICES },
      { path: '^(node:)?(http|https|http2)$|(^|/)node_modules/(uWebSockets\\.js|ws)/' },
    ),
    forbid(
      'redis-only-in-store',
      'Redis commands live in src/store; use cases and the HTTP and WebSocket edges never hold an ioredis client (jobs hands BullMQ its connections).',
      { path: '^src/(domain|services|http|realtime)/' },
      { path: '(^|/)node_modules/ioredis/|^ioredis$' },
    ),
    forbid(
      'only-the-composition-opens-connections',
      'Redis connections and the embedded redis-server are opened by the composition (app.ts) and main.ts only.',
      { path: '^src/', pathNot: [COMPOSITION, ENTRY, STORE] },
      { path: `${STORE}(redis|script-connection|redis-process|data-dir-lock)\\.ts$` },
    ),
    forbid(
      'edges-go-through-services',
      'http, realtime and jobs reach Redis only through services; a store-independent helper an edge needs lives in that edge or in domain.',
      { path: '^src/(http|realtime|jobs)/' },
      { path: STORE },
    ),
    forbid(
      'http-is-not-realtime-or-jobs',
      'http does not import the other edges.',
      { path: HTTP },
      { path: '^src/(realtime|jobs)/' },
    ),
    forbid(
      'jobs-is-not-http-or-realtime',
      'jobs does not import the other edges.',
      { path: JOBS },
      { path: '^src/(http|realtime)/' },
    ),
    forbid(
      'realtime-uses-only-shared-http',
      'realtime may use the shared, store-independent modules of http (types, metrics, error replies), never the HTTP server or its routes, nor jobs.',
      { path: REALTIME },
      { path: [`${HTTP}server\\.ts$`, `${HTTP}routes/`, '^src/jobs/'] },
    ),
    forbid(
      'edges-do-not-compose',
      'Only the composition (app.ts) wires layers together; nothing below it imports it or the entry.',
      { path: ['^src/(domain|store|services|http|realtime|jobs|demo|mcp)/', '^src/(config|logger)\\.ts$'] },
      { path: [COMPOSITION, ENTRY] },
    ),
    forbid(
      'only-main-starts-the-composition',
      'src/main.ts is the one entry: it alone imports the composition modules.',
      { path: '^src/', pathNot: [ENTRY, COMPOSITION] },
      { path: COMPOSITION },
    ),
    forbid(
      'shared-modules-are-leaves',
      'config.ts and logger.ts import only domain (and packages).',
      { path: '^src/(config|logger)\\.ts$' },
      { path: '^src/', pathNot: [DOMAIN, '^src/(config|logger)\\.ts$'] },
    ),
    forbid(
      'demo-is-an-api-client',
      'The demo talks to the service over its public API only: it may import domain and logger, never the server side.',
      { path: DEMO },
      { path: '^src/', pathNot: [DOMAIN, DEMO, CLIENT, '^src/logger\\.ts$'] },
    ),
    forbid(
      'mcp-is-an-api-client',
      'The MCP server talks to the service over its public API only: it may import domain (the request schemas), client, config and logger, never store, services or the internals of http, realtime or jobs.',
      { path: MCP },
      { path: '^src/', pathNot: [DOMAIN, CLIENT, MCP, '^src/(config|logger)\\.ts$'] },
    ),
    forbid(
      'client-stands-alone',
      'src/client is a plain HTTP client of the public API: it imports nothing of the service.',
      { path: CLIENT },
      { path: '^src/', pathNot: CLIENT },
    ),
    forbid('no-cycles', 'Modules do not import each other in a circle.', { path: '^src/' }, { circular: true }),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
