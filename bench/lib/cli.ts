import { parseArgs } from 'node:util';
import type { BenchOptions } from './types.js';

export type ScenarioInfo = { name: string; summary: string };

const DEFAULTS = {
  duration: 10,
  soak: 60,
  warmup: 1,
  connections: 64,
  agents: 200,
  registrations: 300,
  pairs: 100,
  spectators: 10_000,
  backgroundFraction: 0.5,
  wrkThreads: 1,
  wrkConnections: 50,
  scaleAgents: 100_000,
  maxRequests: 5_000_000,
  maxMinutes: 30,
  out: 'bench/results',
};
/** What --cluster compares when no scenario is named: swipe throughput and push latency. */
export const CLUSTER_SCENARIOS = ['swipes', 'agent-life'];
const QUICK = { duration: 3, soak: 10, agents: 100, registrations: 100, pairs: 30, spectators: 2_000, scaleAgents: 10_000 };

export function helpText(scenarios: ScenarioInfo[], defaultScenarios: string[]): string {
  const width = Math.max(...scenarios.map((s) => s.name.length));
  return `Load bench for the agent matching service.

Usage: npm run bench -- [options] [scenario ...]

By default the bench starts the service itself (tsx src/main.ts serve, the embedded default: its own
redis-server in a throw-away DATA_DIR and the in-process ranking worker, on a free port) and stops it at
the end. With --url it loads a running service instead. Clients are spread over loopback source
addresses (127.x.y.z) so the real per-address limits (5 registrations a minute) stay on.

Every run also measures the ceilings that give the figures meaning: a trivial uWS route in its own
process loaded by the same generator, the service's GET /healthz, and a Redis PING. When wrk is on PATH
(Debian package wrk), the uWS route and the swipes are also loaded by wrk with one Lua request script, so
that the swipe / uWS ratios of both generators can be compared. Results: a table on stdout, plus
bench/results/<timestamp>.json and .html (self-contained charts).

Scenarios (default: ${defaultScenarios.join(' ')}):
${scenarios.map((s) => `  ${s.name.padEnd(width)}  ${s.summary}`).join('\n')}

Options:
  --cluster             run the chosen scenarios (default: ${CLUSTER_SCENARIOS.join(' ')}) on the embedded default, then
                        again on a three-master Redis Cluster with two service processes sharing the load
                        (REDIS_CLUSTER_NODES); reports both side by side, with used_memory and keys per master
  --cluster-replicas N  replicas of each master of the --cluster run's Redis Cluster (default 0: masters only;
                        1 is what docker-compose.yml's cluster profile runs)
  --url URL             load a running service at URL instead of starting one (loopback or given host only)
  --redis-url URL       the Redis of the --url service (memory and CPU figures, --seed); optional
                        (the --url service's server figures need its METRICS_TOKEN in the bench's environment)
  --duration S          seconds per measured phase (default ${DEFAULTS.duration})
  --soak S              seconds of the mixed soak (default ${DEFAULTS.soak})
  --warmup S            seconds of warm-up before each throughput phase, not measured (default ${DEFAULTS.warmup})
  --connections N       keep-alive HTTP connections for throughput phases (default ${DEFAULTS.connections})
  --agents N            agents registered through the API for the swipe and discovery scenarios (default ${DEFAULTS.agents})
  --registrations N     registrations in the auth scenario, at most (default ${DEFAULTS.registrations})
  --pairs N             agent pairs living register → feed → swipe → match → chat (default ${DEFAULTS.pairs})
  --spectators N        spectator sockets opened at once (default ${DEFAULTS.spectators})
  --ws-processes N      client processes holding the spectator sockets (default: one per 5,000 sockets)
  --spectator-client C  what those processes speak WebSocket with: lean (raw TCP sockets, default) or ws (the
                        ws library, heavier; the Socket.IO comparison then does not run)
  --no-socketio         the spectator scenario skips its Socket.IO broadcast comparison
  --background-fraction F
                        push latency is measured idle, then under a steady background load of F × the pass-only
                        swipe throughput measured by the swipes scenario in the same run (without it: a 3 s
                        capacity probe); the background load is pass-only swipes (default ${DEFAULTS.backgroundFraction})
  --background-rate N   the background load in requests/s instead (0: push latency idle only)
  --wrk-threads N       wrk threads (default ${DEFAULTS.wrkThreads}; at least one per service process)
  --wrk-connections N   wrk connections (default ${DEFAULTS.wrkConnections})
  --no-wrk              do not use wrk even when it is on PATH (the Node generator's figures only)
  --seed N              first write N more agents straight into Redis through the project's store code;
                        results that include them are labelled "seeded" (default 0: none)
  --scale-agents N      seeded agents of the discovery-scale and adversarial-browse scenarios (default ${DEFAULTS.scaleAgents})
  --max-requests N      upper bound of requests per phase (default ${DEFAULTS.maxRequests})
  --max-minutes M       the whole run stops after M minutes (default ${DEFAULTS.maxMinutes})
  --out DIR             where the JSON and HTML reports go (default ${DEFAULTS.out})
  --compare REF         measure the service of git REF (built in a temporary worktree) and the work tree's, in
                        turns (ref, tree, ref, tree…), each on its own embedded redis-server: pass and like
                        swipes (wrk), messages and feed reads; prints both, with tree/ref, and no scenario runs
  --compare-rounds N    rounds of --compare, each measuring the ref then the tree (default 3, at least 2)
  --replica-ack         the --compare phases on the work tree's service twice, each on a redis-server with one
                        replica: REDIS_MIN_REPLICAS_ACK=0 (as "ref") and =1 (as "tree"), in turns: what the
                        replicas' confirmation of each acknowledged write costs
  --report FILE.json    run nothing: print the table of an earlier run and rewrite its HTML report
  --quick               short run: --duration ${QUICK.duration} --soak ${QUICK.soak} --agents ${QUICK.agents} --registrations ${QUICK.registrations}
                        --pairs ${QUICK.pairs} --spectators ${QUICK.spectators} --scale-agents ${QUICK.scaleAgents}
  -h, --help            this text

Examples:
  npm run bench                               # every default scenario against the embedded default (minutes)
  npm run bench -- --quick                    # a short run (about a minute and a half)
  npm run bench -- swipes --duration 20       # one scenario
  npm run bench -- --cluster                  # swipes and push latency: single Redis, then a Redis Cluster
  npm run bench -- --compare main --duration 5 # before a hot-path change lands: main and the work tree, in turns
  npm run bench -- --replica-ack --duration 5  # swipes, messages and feed reads with and without replicas' confirmation
  npm run bench -- --url http://127.0.0.1:8080 --redis-url redis://127.0.0.1:6379 discovery
`;
}

export class UsageError extends Error {}

/** Parses argv; throws UsageError with a clear line on a bad option. Returns undefined for --help. */
export function parseCli(argv: string[], known: string[], defaultScenarios: string[]): BenchOptions | undefined {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      quick: { type: 'boolean' },
      cluster: { type: 'boolean' },
      'cluster-replicas': { type: 'string' },
      url: { type: 'string' },
      'redis-url': { type: 'string' },
      scenarios: { type: 'string' },
      duration: { type: 'string' },
      soak: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      agents: { type: 'string' },
      registrations: { type: 'string' },
      pairs: { type: 'string' },
      spectators: { type: 'string' },
      'ws-processes': { type: 'string' },
      'spectator-client': { type: 'string' },
      'no-socketio': { type: 'boolean' },
      'background-rate': { type: 'string' },
      'background-fraction': { type: 'string' },
      'no-wrk': { type: 'boolean' },
      'wrk-threads': { type: 'string' },
      'wrk-connections': { type: 'string' },
      seed: { type: 'string' },
      'scale-agents': { type: 'string' },
      'max-requests': { type: 'string' },
      'max-minutes': { type: 'string' },
      out: { type: 'string' },
      report: { type: 'string' },
      compare: { type: 'string' },
      'compare-rounds': { type: 'string' },
      'replica-ack': { type: 'boolean' },
    },
  });
  if (values.help) return undefined;
  const base = values.quick ? { ...DEFAULTS, ...QUICK } : DEFAULTS;
  const number = (name: keyof typeof values, fallback: number, min: number, max: number): number => {
    const raw = values[name];
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min || n > max) throw new UsageError(`--${name} must be a number from ${min} to ${max} (got ${String(raw)})`);
    return n;
  };
  const requested = [...(values.scenarios?.split(',') ?? []), ...positionals].map((s) => s.trim()).filter(Boolean);
  for (const name of requested) {
    if (!known.includes(name)) throw new UsageError(`unknown scenario "${name}"; choose from: ${known.join(', ')}`);
  }
  if (values.url) {
    try {
      new URL(values.url);
    } catch {
      throw new UsageError(`--url must be a URL such as http://127.0.0.1:8080 (got ${values.url})`);
    }
  }
  if (values.cluster && values.url) throw new UsageError('--cluster starts its own services: it cannot be combined with --url');
  if (values['cluster-replicas'] !== undefined && !values.cluster) throw new UsageError("--cluster-replicas is the --cluster run's: give --cluster too");
  if (values['replica-ack'] && values.compare !== undefined)
    throw new UsageError('--replica-ack compares the work tree with itself: it cannot be combined with --compare');
  if (values.compare !== undefined || values['replica-ack']) {
    const flag = values['replica-ack'] ? '--replica-ack' : '--compare';
    if (values.url || values.cluster || values.seed)
      throw new UsageError(`${flag} starts both services itself: it cannot be combined with --url, --cluster or --seed`);
    if (requested.length > 0) throw new UsageError(`${flag} runs its own phases (swipes, messages, feed): name no scenario`);
  }
  const spectators = Math.round(number('spectators', base.spectators, 0, 100_000));
  const spectatorClient = values['spectator-client'] ?? 'lean';
  if (spectatorClient !== 'lean' && spectatorClient !== 'ws') throw new UsageError(`--spectator-client must be lean or ws (got ${spectatorClient})`);
  return {
    url: values.url,
    redisUrl: values['redis-url'],
    scenarios: requested.length > 0 ? requested : values.cluster ? CLUSTER_SCENARIOS : defaultScenarios,
    duration: number('duration', base.duration, 1, 3_600),
    soak: number('soak', base.soak, 1, 86_400),
    warmup: number('warmup', base.warmup, 0, 60),
    connections: Math.round(number('connections', base.connections, 1, 5_000)),
    agents: Math.round(number('agents', base.agents, 4, 100_000)),
    registrations: Math.round(number('registrations', base.registrations, 1, 100_000)),
    pairs: Math.round(number('pairs', base.pairs, 1, 10_000)),
    spectators,
    wsProcesses: Math.round(number('ws-processes', Math.max(1, Math.ceil(spectators / 5_000)), 1, 64)),
    spectatorClient,
    socketioComparison: !values['no-socketio'],
    backgroundRate: values['background-rate'] === undefined ? undefined : number('background-rate', 0, 0, 1_000_000),
    backgroundFraction: number('background-fraction', base.backgroundFraction, 0.01, 1),
    wrk: !values['no-wrk'],
    wrkThreads: Math.round(number('wrk-threads', base.wrkThreads, 1, 64)),
    wrkConnections: Math.round(number('wrk-connections', base.wrkConnections, 1, 5_000)),
    seed: Math.round(number('seed', 0, 0, 10_000_000)),
    scaleAgents: Math.round(number('scale-agents', base.scaleAgents, 100, 10_000_000)),
    maxRequests: Math.round(number('max-requests', base.maxRequests, 1, 1e9)),
    maxMinutes: number('max-minutes', base.maxMinutes, 1, 24 * 60),
    out: values.out ?? base.out,
    cluster: values.cluster ?? false,
    clusterReplicas: Math.round(number('cluster-replicas', 0, 0, 5)),
    report: values.report,
    compare: values.compare,
    compareRounds: Math.round(number('compare-rounds', 3, 2, 100)),
    replicaAck: values['replica-ack'] ?? false,
  };
}
