import { z } from 'zod';

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''], { error: 'must be true or false' })
  .transform((v) => v === '1' || v === 'true' || v === 'yes');
/** A whole number within [min, max]; any problem (not a number, a fraction, out of range) names the range. */
const int = (min: number, max: number) => {
  const error = `must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};

const isPort = (text: string) => /^\d{1,5}$/.test(text) && Number(text) >= 1 && Number(text) <= 65_535;

/** Ports webhooks are delivered to when WEBHOOK_ALLOWED_PORTS is unset (and private destinations are not allowed). */
export const DEFAULT_WEBHOOK_PORTS: readonly number[] = [80, 443];

/** WEBHOOK_ALLOWED_PORTS: a comma list of ports, or `*` for any port. */
const portList = z
  .string()
  .trim()
  .refine((list) => list === '*' || list.split(',').every((port) => isPort(port.trim())), {
    error: 'must be a comma-separated list of ports (1-65535), e.g. 80,443,8443, or * for any port',
  })
  .transform((list): readonly number[] | 'any' => (list === '*' ? 'any' : [...new Set(list.split(',').map(Number))].sort((a, b) => a - b)));

function isHostPort(node: string): boolean {
  const match = /^[^\s,:]+:(\d{1,5})$/.exec(node);
  return match !== null && isPort(match[1]!);
}

/** Every setting, read from the environment; docs/configuration.md documents each (test/http/docs.test.ts checks it). */
const settingsSchema = z.object({
  PORT: int(0, 65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  REDIS_URL: z.url({ error: 'must be a URL such as redis://127.0.0.1:6379' }).optional(),
  REDIS_CLUSTER_NODES: z
    .string()
    .refine((list) => list.split(',').every(isHostPort), {
      error: 'must be a comma-separated list of host:port seed nodes, e.g. 10.0.0.1:7000,10.0.0.2:7000',
    })
    .transform((list) => list.split(','))
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TOKEN_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
  TOKEN_TTL_SECONDS: int(60, 60 * 60 * 24 * 365).default(86_400),
  TOKENS_MAX_PER_ACCOUNT: int(1, 1_000).default(32),
  CREDENTIALS_RATE_LIMIT: int(1, 100_000).default(10),
  CREDENTIALS_RATE_WINDOW_SECONDS: int(1, 86_400).default(300),
  SPECTATOR_REPLAY_LIMIT: int(1, 10_000).default(500),
  WS_MAX_PER_IP: int(1, 100_000).default(256),
  WS_MAX_PER_TOKEN: int(1, 1_000).default(8),
  WS_MAX_PER_ACCOUNT: int(1, 10_000).default(16),
  WS_UPGRADE_RATE_LIMIT: int(1, 100_000).default(120),
  WS_UPGRADE_RATE_WINDOW_SECONDS: int(1, 86_400).default(60),
  SPECTATOR_UPGRADE_RATE_LIMIT: int(1, 100_000).default(60),
  SPECTATOR_UPGRADE_RATE_WINDOW_SECONDS: int(1, 86_400).default(60),
  REGISTER_RATE_LIMIT: int(1, 100_000).default(5),
  REGISTER_RATE_WINDOW_SECONDS: int(1, 86_400).default(60),
  LOGIN_RATE_LIMIT: int(1, 100_000).default(10),
  LOGIN_RATE_WINDOW_SECONDS: int(1, 86_400).default(60),
  DISCOVERY_RATE_LIMIT: int(1, 100_000).default(600),
  DISCOVERY_RATE_WINDOW_SECONDS: int(1, 86_400).default(60),
  LIKE_RATE_LIMIT: int(1, 100_000).default(600),
  LIKE_RATE_WINDOW_SECONDS: int(1, 86_400).default(60),
  PASS_EXPIRY_DAYS: int(1, 3_650).default(30),
  UNDO_WINDOW_SECONDS: int(10, 86_400).default(300),
  MESSAGE_RATE_LIMIT: int(1, 100_000).default(300),
  MESSAGE_RATE_WINDOW_SECONDS: int(1, 86_400).default(60),
  READ_RATE_LIMIT: int(1, 100_000).default(600),
  READ_RATE_WINDOW_SECONDS: int(1, 86_400).default(60),
  PROFILE_RATE_LIMIT: int(1, 100_000).default(30),
  PROFILE_RATE_WINDOW_SECONDS: int(1, 86_400).default(60),
  WEBHOOK_TEST_RATE_LIMIT: int(1, 100_000).default(10),
  WEBHOOK_TEST_RATE_WINDOW_SECONDS: int(1, 86_400).default(60),
  EVENTS_RATE_LIMIT: int(1, 100_000).default(600),
  EVENTS_RATE_WINDOW_SECONDS: int(1, 86_400).default(60),
  // At least 20, so that any client (the MCP server's events tool among them) may always wait 20 s.
  EVENTS_MAX_WAIT_SECONDS: int(20, 300).default(30),
  EVENTS_MAX_WAITING_PER_ACCOUNT: int(1, 100).default(4),
  SPECTATOR_RATE_LIMIT: int(1, 100_000).default(600),
  SPECTATOR_RATE_WINDOW_SECONDS: int(1, 86_400).default(60),
  SPECTATOR_CACHE_MS: int(0, 60_000).default(1_000),
  TRUST_PROXY: bool.default(false),
  // Above WS_MAX_PER_IP's default, so that a client opening too many sockets is refused by the socket cap's full answer first.
  MAX_CONNECTIONS_PER_IP: int(0, 100_000).default(512),
  METRICS_TOKEN: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
  ADMIN_TOKEN: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
  REPORT_DAILY_LIMIT: int(1, 10_000).default(20),
  REPORTS_MAX_OPEN: int(10, 1_000_000).default(10_000),
  REPORTS_MAX_OPEN_PER_REPORTER: int(1, 1_000).default(10),
  // At most the 30 days an ended match's record is kept: a report names the match through that record.
  REPORT_EVIDENCE_HOURS: int(1, 720).default(72),
  BLOCKS_MAX_PER_ACCOUNT: int(1, 100_000).default(1_000),
  BLOCK_RATE_LIMIT: int(1, 100_000).default(30),
  BLOCK_RATE_WINDOW_SECONDS: int(1, 86_400).default(60),
  EMBEDDED_WORKER: bool.default(true),
  SHUTDOWN_GRACE_MS: int(0, 120_000).default(10_000),
  EVENT_SWEEP_MS: int(50, 60_000).default(2_000),
  ERASURE_SWEEP_MS: int(100, 3_600_000).default(60_000),
  EVENT_STEP_MARK_SECONDS: int(60, 86_400).default(900),
  THREAD_MAX_MESSAGES: int(10, 1_000_000).default(2_000),
  THREAD_MAX_AGE_DAYS: int(1, 3_650).default(30),
  OUTBOX_MAX_ATTEMPTS: int(1, 1_000).default(20),
  REDIS_TIMEOUT_MS: int(100, 60_000).default(1_000),
  REDIS_MIN_REPLICAS_ACK: int(0, 5).default(0),
  REDIS_REPLICA_ACK_TIMEOUT_MS: int(10, 60_000).default(500),
  // Redis promotes a replica 1-3 s after cluster-node-timeout: 10 s rides out a failover under a node timeout of up to 7 s.
  REDIS_FAILOVER_MS: int(0, 300_000).default(10_000),
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  WEBHOOK_ALLOWED_PORTS: portList.optional(),
  WEBHOOK_MAX_PER_ACCOUNT: int(1, 100).default(5),
  WEBHOOK_TIMEOUT_MS: int(100, 60_000).default(5_000),
  WEBHOOK_MAX_ATTEMPTS: int(1, 50).default(12),
  WEBHOOK_RETRY_BASE_MS: int(10, 3_600_000).default(40_000),
  WEBHOOK_SECRET_OVERLAP_SECONDS: int(0, 30 * 86_400).default(86_400),
  WEBHOOK_CONCURRENCY: int(1, 1_000).default(16),
  WEBHOOK_LOCK_MS: int(500, 600_000).default(30_000),
});

/** The name of every setting, as the environment spells it. */
export const SETTING_NAMES: readonly string[] = Object.keys(settingsSchema.shape);

const configSchema = settingsSchema
  .refine((config) => !(config.REDIS_URL && config.REDIS_CLUSTER_NODES), {
    path: ['REDIS_CLUSTER_NODES'],
    error: 'cannot be set together with REDIS_URL: set one of them',
  })
  // WAIT holds the connection's later calls: past the command timeout the connection would count as stalled.
  .refine((config) => config.REDIS_MIN_REPLICAS_ACK === 0 || config.REDIS_REPLICA_ACK_TIMEOUT_MS < config.REDIS_TIMEOUT_MS, {
    path: ['REDIS_REPLICA_ACK_TIMEOUT_MS'],
    error: 'must be below REDIS_TIMEOUT_MS when REDIS_MIN_REPLICAS_ACK is set',
  })
  // Allowing private destinations trusts every destination (tests, the bench, local receivers on any port),
  // unless the operator names the ports as well.
  .transform((config) => ({
    ...config,
    WEBHOOK_ALLOWED_PORTS: config.WEBHOOK_ALLOWED_PORTS ?? (config.WEBHOOK_ALLOW_PRIVATE ? ('any' as const) : DEFAULT_WEBHOOK_PORTS),
  }));

export type Config = z.output<typeof configSchema>;
export type ConfigInput = Partial<Record<keyof Config, string | number | boolean | undefined>>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

/** Reads the settings; throws ConfigError with one line per bad value. */
export function loadConfig(env: Record<string, string | number | boolean | undefined> = process.env): Config {
  const picked: Record<string, unknown> = {};
  for (const key of SETTING_NAMES) {
    const value = env[key];
    if (value !== undefined && value !== '') picked[key] = typeof value === 'string' ? value : String(value);
  }
  const result = configSchema.safeParse(picked);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const key = String(issue.path[0]);
    return `config: ${key}=${JSON.stringify(picked[key])} ${issue.message}`;
  });
  // A value can break several checks that share one message (a negative fraction): one line for it.
  throw new ConfigError([...new Set(lines)]);
}

/** Every setting at its default: the one home of the defaults that modules built without the settings use. */
export const DEFAULT_CONFIG: Config = loadConfig({});
