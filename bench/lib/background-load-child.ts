/**
 * The push-latency scenario's background load in a process of its own, so that its requests do not delay the
 * bench process that times the pushes. Pass-only swipes, the load the swipes scenario measures its capacity
 * with, so that a fraction of that capacity means what it says: each agent through all the others in its own
 * shuffled order, then again. Paced to `ratePerSecond` (0: as fast as the connections go, for a capacity probe).
 *
 *   argv[2]: JSON {host, ports, connections, ratePerSecond, durationMs, warmupMs, maxRequests, agents: [{id, token}], addresses}
 *
 * Runs until `durationMs` is over or SIGTERM, then prints one line `RESULT <json>`: the operations' figures
 * (Recorder.all()) and the measured seconds.
 */
import { startLoad, type ClientScript, type LoadRequest } from './http-load.js';
import { prng } from './profiles.js';

type Config = {
  host: string;
  ports: number[];
  connections: number;
  ratePerSecond: number;
  durationMs: number;
  warmupMs: number;
  maxRequests: number;
  agents: Array<{ id: number; token: string }>;
  addresses: Array<string | undefined>;
};

const config = JSON.parse(process.argv[2] ?? '{}') as Config;
const { agents, addresses } = config;

const client = (i: number): ClientScript => {
  const me = agents[i % agents.length]!;
  const random = prng(me.id * 17 + i);
  const order = agents.filter((agent) => agent !== me);
  for (let j = order.length - 1; j > 0; j--) {
    const k = Math.floor(random() * (j + 1));
    [order[j], order[k]] = [order[k]!, order[j]!];
  }
  const headers = { Authorization: `Bearer ${me.token}` };
  const requests: LoadRequest[] = order.map((other) => ({ method: 'POST', path: `/api/v1/likes/${other.id}?kind=pass`, headers, tag: 'POST like (pass)' }));
  let k = 0;
  return { localAddress: addresses[i % addresses.length], next: () => requests[k++ % requests.length]! };
};

const handle = startLoad({
  host: config.host,
  port: config.ports[0]!,
  ports: config.ports,
  connections: config.connections,
  durationMs: config.durationMs,
  warmupMs: config.warmupMs,
  ratePerSecond: config.ratePerSecond > 0 ? config.ratePerSecond : undefined,
  maxRequests: config.maxRequests,
  client,
});
process.on('SIGTERM', () => handle.stop());
const recorder = await handle.done;
process.stdout.write(`RESULT ${JSON.stringify({ seconds: recorder.elapsedMs / 1000, operations: recorder.all() })}\n`);
process.exit(0);
