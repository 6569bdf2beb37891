/**
 * How src/ is arranged, checked by `npm run lint:layers` (scripts/lint-layers.mjs); docs/architecture.md
 * draws the map.
 *
 *   main.ts → app.ts (the server's composition root, put together from its parts in app/: the Redis
 *   connections, the features' wiring, the HTTP and WebSocket server; worker.ts, the worker process's; both
 *   build the repositories from repositories.ts) → features/<name>/ → platform/
 *   clients/ (the JSON client, the MCP server, the demo) stand apart: they speak the public API.
 *   public-api.ts lists the public routes, for the server (app.ts) and for the OpenAPI document alone.
 *
 * The TypeScript client package, clients/typescript/src (checked with src by `npm run lint:layers`), imports
 * nothing of the service: it speaks HTTP, its types generated from the OpenAPI document.
 *
 * Inside a feature: routes → service → repository → platform (file names end in -routes, -service,
 * -repository). A feature reaches another only through that feature's index.ts, its *-schemas.ts
 * (the request rules, pure, which the MCP client shares), or its declarations: *-endpoints.ts (each route's
 * method, path and doc, without its handler) and the *-api.ts schemas they describe, which the MCP client
 * derives its tools from. Declarations hold no service, repository or route. An index exports no repository
 * but by type: the composition builds the repositories, importing them by path. The platform imports no
 * feature. Only repositories, the composition and the Redis platform hold a Redis client. Type-only imports count.
 * platform/core and every *-schemas.ts are pure: zod and each other, no I/O. The runner also checks that
 * they carry no HTTP headers and no OpenAPI metadata (`pure-modules-know-no-http`): the routes' *-api.ts
 * describe them for the OpenAPI document.
 */
const COMPOSITION = '^src/((app|worker|layout-migration)\\.ts|app/[^/]+\\.ts)$';
// The parts of the server's composition, which app.ts puts together.
const SERVER_PARTS = '^src/app/';
const REPOSITORIES = '^src/repositories\\.ts$';
const ENTRY = '^src/main\\.ts$';
const CONFIG = '^src/config\\.ts$';
const PLATFORM = '^src/platform/';
const CORE = '^src/platform/core/';
const FEATURES = '^src/features/';
const CLIENTS = '^src/clients/';
// Pure rules: the request schemas, and the interest matcher and its word list they use.
const SCHEMAS = '^src/features/[^/]+/[^/]+-(schemas|canon|synonyms)\\.ts$';
const INDEX = '^src/features/[^/]+/index\\.ts$';
// What describes a route without serving it: its declaration and the schemas of its document.
const DECLARATIONS = ['^src/features/[^/]+/[^/]+-(endpoints|api)\\.ts$', '^src/features/[^/]+/[^/]+/[^/]+-(endpoints|api)\\.ts$'];
// The HTTP platform's modules that only describe: route types, answer schemas, paging parameters.
const HTTP_WORDS = '^src/platform/http/(types|response-schemas|pagination|params)\\.ts$';
const ROUTES = '-routes\\.ts$';
const SERVICE = '-service\\.ts$';
const REPOSITORY = '-repository\\.ts$';
const NOT_TYPES = { dependencyTypesNot: ['type-only'] };
/**
 * A Redis client, whatever its name: the packages (ioredis, and the other clients the benches compare), the
 * project's RedisClient and connections, and the script runner, which also sends plain commands.
 */
const REDIS_CLIENT = [
  '(^|/)node_modules/(ioredis|redis|@redis/[^/]+|@valkey/valkey-glide)/',
  '^(ioredis|redis|@valkey/valkey-glide)$',
  '^src/platform/redis/(redis|scripts|script-connection|hot-connection|slot-routed-connection|failover-cluster)\\.ts$',
];

/** A rule that `from` may not import `to`. */
const forbid = (name, comment, from, to) => ({ name, comment, severity: 'error', from, to });

module.exports = {
  forbidden: [
    forbid(
      'platform-knows-no-feature',
      'src/platform is what every feature stands on: it imports no feature, client or the composition.',
      { path: PLATFORM },
      { path: [FEATURES, CLIENTS, COMPOSITION, ENTRY] },
    ),
    forbid(
      'features-meet-through-their-index',
      "A feature reaches another only through that feature's index.ts (its public face), its pure *-schemas.ts or its declarations.",
      { path: '^src/features/([^/]+)/' },
      { path: FEATURES, pathNot: ['^src/features/$1/', INDEX, SCHEMAS, ...DECLARATIONS] },
    ),
    forbid(
      'declarations-only-describe',
      'A route declaration (*-endpoints.ts) and its schemas (*-api.ts) hold no service, repository, route or index, and of the platform only core and what describes HTTP: the MCP client reads them.',
      { path: DECLARATIONS },
      { path: [SERVICE, REPOSITORY, ROUTES, INDEX, CLIENTS, COMPOSITION, ENTRY, CONFIG, PLATFORM], pathNot: [CORE, HTTP_WORDS] },
    ),
    forbid(
      'routes-are-the-top-of-a-feature',
      "A feature's routes are wired by the composition (through the feature's index); nothing else imports them.",
      { path: [PLATFORM, FEATURES], pathNot: INDEX },
      { path: ROUTES },
    ),
    forbid('routes-go-through-services', 'Routes call services; they never hold a repository.', { path: ROUTES }, { path: REPOSITORY }),
    forbid('repositories-below-services', 'A repository (Redis) imports no service and no routes.', { path: REPOSITORY }, { path: [SERVICE, ROUTES] }),
    forbid(
      'services-know-no-transport',
      'Services know nothing of HTTP or WebSockets.',
      { path: SERVICE },
      { path: '^(node:)?(http|https|http2)$|(^|/)node_modules/(uWebSockets\\.js|ws)/' },
    ),
    forbid(
      'redis-only-in-repositories',
      'Redis commands live in repositories: a Redis client (ioredis, RedisClient, the script runner, the lean connections) is imported, even for its type, only by *-repository.ts files, the compositions (app.ts and its parts, worker.ts, layout-migration.ts) and the Redis platform itself (platform/redis, platform/redis-server).',
      { path: '^src/', pathNot: [REPOSITORY, COMPOSITION, '^src/platform/redis(-server)?/'] },
      { path: REDIS_CLIENT },
    ),
    forbid(
      'index-exports-no-repositories',
      "A feature's index.ts exports its services, routes, pure rules and types: a repository only as a type. The composition builds the repositories and imports them by path.",
      { path: INDEX },
      { path: REPOSITORY, ...NOT_TYPES },
    ),
    forbid(
      'only-the-composition-opens-connections',
      'Redis connections and the embedded redis-server are opened by the compositions (app.ts and its parts, worker.ts, layout-migration.ts) and main.ts only.',
      { path: '^src/', pathNot: [COMPOSITION, ENTRY, '^src/platform/redis(-server)?/'] },
      { path: '^src/platform/(redis/(redis|script-connection)|redis-server/(redis-process|data-dir-lock))\\.ts$', ...NOT_TYPES },
    ),
    forbid(
      'pure-modules-are-pure',
      'platform/core and the *-schemas.ts modules are pure rules: they import only each other and zod, no I/O.',
      { path: [CORE, SCHEMAS] },
      { pathNot: [CORE, SCHEMAS, '(^|/)node_modules/zod/', '^zod$'] },
    ),
    forbid(
      'the-composition-is-the-root',
      'Only main.ts imports the compositions (app.ts, worker.ts, layout-migration.ts), and only they the repositories they build (repositories.ts); nothing imports main.ts.',
      { path: '^src/', pathNot: ENTRY },
      { path: [COMPOSITION, ENTRY], pathNot: SERVER_PARTS },
    ),
    forbid(
      'server-parts-belong-to-app',
      "The parts of the server's composition (app/) are put together by app.ts alone (and one another).",
      { path: '^src/', pathNot: ['^src/app\\.ts$', SERVER_PARTS] },
      { path: SERVER_PARTS },
    ),
    forbid(
      'repositories-are-built-by-the-composition',
      'src/repositories.ts, the repositories by path, is imported by the compositions (app.ts and its parts, worker.ts, layout-migration.ts) alone.',
      { path: '^src/', pathNot: COMPOSITION },
      { path: REPOSITORIES },
    ),
    forbid(
      'config-is-a-leaf',
      'config.ts, the one home of defaults, imports only platform/core (and packages).',
      { path: CONFIG },
      { path: '^src/', pathNot: [CORE, CONFIG] },
    ),
    forbid(
      'clients-speak-the-public-api',
      'The clients (JSON client, MCP server, demo) talk to the service over its public API: they may use the pure request rules (*-schemas.ts, platform/core), the route declarations (*-endpoints.ts, *-api.ts, and the HTTP words they use), config and the logger, never the server side.',
      { path: CLIENTS },
      { path: '^src/', pathNot: [CLIENTS, CORE, SCHEMAS, ...DECLARATIONS, HTTP_WORDS, CONFIG, '^src/platform/logger\\.ts$'] },
    ),
    forbid(
      'json-client-stands-alone',
      'src/clients/json-client.ts is a plain HTTP client of the public API: it imports nothing of the service.',
      { path: '^src/clients/json-client\\.ts$' },
      { path: '^src/' },
    ),
    forbid(
      'client-package-stands-alone',
      'The TypeScript client package talks to the service over HTTP only: it imports its own files and its packages, nothing else of the repository.',
      { path: '^clients/typescript/' },
      { pathNot: ['^clients/typescript/', '(^|/)node_modules/'] },
    ),
    forbid('no-cycles', 'Modules do not import each other in a circle, type-only imports counted.', { path: '^src/' }, { circular: true }),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
