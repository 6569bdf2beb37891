/**
 * `npm run bench:balance -- [--agents 100000] [--seconds 10] [--clients 40]`: how evenly a three-master Redis
 * Cluster carries the service. Seeds `--agents` agents through the store code, then has `--clients` of them
 * (logged in through the API of two service processes) read feeds and swipe for `--seconds`. Prints per
 * master: used_memory and keys after seeding, and commands processed during the seeding and during the load,
 * each with its deviation from the mean of the masters. The aim: every master within ±25% of the mean.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { JsonClient } from '../src/clients/json-client.js';
import { startRedisCluster } from '../src/platform/redis-server/redis-cluster-process.js';
import { renderBalance, worstDeviation, type BalanceColumn } from './lib/balance-table.js';
import { REPO_ROOT, runMain } from './lib/children.js';
import { runLoad, type ClientScript } from './lib/http-load.js';
import { LoopbackAddresses } from './lib/loopback.js';
import { readMasterStats, type MasterStats } from './lib/master-stats.js';
import { bearer } from './lib/phase.js';
import { agentProfile, BENCH_PASSWORD } from './lib/profiles.js';
import { seedAgents } from './lib/seed.js';
import { startClusterService } from './lib/target.js';

const TOLERANCE = 0.25;

const { values } = parseArgs({
  options: { agents: { type: 'string', default: '100000' }, seconds: { type: 'string', default: '10' }, clients: { type: 'string', default: '40' } },
});
const agents = Number(values.agents);
const seconds = Number(values.seconds);
const clients = Math.min(Number(values.clients), agents);
if (![agents, seconds, clients].every((n) => Number.isInteger(n) && n > 0)) {
  console.error('--agents, --seconds and --clients must be positive integers');
  process.exit(2);
}

const log = (line: string) => console.error(`   ${line}`);
const delta = (after: MasterStats[], before: MasterStats[]) => after.map((master, i) => master.commandsProcessed - before[i]!.commandsProcessed);

async function main(): Promise<number> {
  const cluster = await startRedisCluster({ appendfsync: 'everysec' });
  log(`Redis Cluster: masters ${cluster.nodes.join(', ')}`);
  const runId = `balance${Date.now().toString(36)}`;
  try {
    const beforeSeed = await readMasterStats(cluster.nodes);
    log(`seeding ${agents} agents through the store code…`);
    const seeding = await seedAgents({ kind: 'cluster', nodes: cluster.nodes }, agents, runId, { info: log });
    log(`seeded in ${seeding.seconds.toFixed(1)} s`);
    const afterSeed = await readMasterStats(cluster.nodes);

    let load: number[] | undefined;
    let requests = 0;
    try {
      const measured = await measureLoad(cluster.nodes, runId);
      load = measured.ops;
      requests = measured.requests;
    } catch (error) {
      log(`the load through the service failed (the seeding figures stand): ${(error as Error).stack ?? String(error)}`);
    }

    const columns: BalanceColumn[] = [
      { name: 'used_memory', values: afterSeed.map((m) => m.usedMemoryBytes), bytes: true },
      { name: 'keys', values: afterSeed.map((m) => m.keys) },
      { name: 'ops seeding', values: delta(afterSeed, beforeSeed) },
      ...(load ? [{ name: 'ops load', values: load }] : []),
    ];
    console.log(
      `\n${agents} agents seeded into ${cluster.nodes.length} masters; then ${load ? `${requests} requests in ${seconds} s over two service processes` : 'no load (it failed)'}.`,
    );
    console.log('used_memory and keys after seeding; ops = total_commands_processed during the seeding and during the load.\n');
    console.log(renderBalance(cluster.nodes, columns));
    const worst = worstDeviation(columns);
    const within = Math.abs(worst.deviation) <= TOLERANCE;
    console.log(
      `\nLargest deviation from the mean: ${(100 * worst.deviation).toFixed(1)}% (${worst.column}): ${within ? 'within' : 'OUTSIDE'} ±${100 * TOLERANCE}%.`,
    );

    const outDir = resolve(REPO_ROOT, 'bench/results');
    mkdirSync(outDir, { recursive: true });
    const path = join(outDir, `cluster-balance-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(path, `${JSON.stringify({ agents, seconds, clients, requests, nodes: cluster.nodes, columns, worst }, null, 2)}\n`);
    console.log(`Report: ${path}`);
    return within && load ? 0 : 1;
  } finally {
    await cluster.cleanup();
  }
}

/** Two service processes on the cluster; `clients` seeded agents log in, then read feeds and swipe for `seconds`. */
async function measureLoad(nodes: string[], runId: string): Promise<{ ops: number[]; requests: number }> {
  const target = await startClusterService(log, { nodes });
  let requests = 0;
  try {
    const addresses = new LoopbackAddresses(true);
    const api = new JsonClient(target.baseUrl, { maxSockets: 16 });
    const group: Array<{ id: number; token: string }> = [];
    try {
      log(`logging ${clients} seeded agents in…`);
      // Spread over the whole seeded population: the first ones seeded would share few shards.
      for (let k = 0; k < clients; k++) {
        const n = Math.floor((k * agents) / clients);
        const res = await api.post<{ token: string; user_id: number }>('/api/v1/auth/login', {
          body: { email: agentProfile(`${runId}-seeded`, n).email, password: BENCH_PASSWORD },
          localAddress: addresses.next(),
        });
        if (res.status !== 200) throw new Error(`login answered ${res.status}: ${res.text.slice(0, 200)}`);
        group.push({ id: res.body.user_id, token: res.body.token });
      }
    } finally {
      api.close();
    }
    const beforeLoad = await readMasterStats(nodes);
    log(`${seconds} s of feed reads and swipes by ${clients} agents over ${target.ports.length} service processes…`);
    const recorder = await runLoad({
      host: target.host,
      port: target.port,
      ports: target.ports,
      connections: Math.min(32, clients),
      durationMs: seconds * 1000,
      client: (i): ClientScript => mixedClient(group, i, addresses.next()),
    });
    const afterLoad = await readMasterStats(nodes);
    for (const tag of recorder.tags) {
      const stats = recorder.stats(tag);
      requests += stats.count;
      log(`${tag}: ${stats.count} (${JSON.stringify(stats.outcomes)})`);
    }
    return { ops: delta(afterLoad, beforeLoad), requests };
  } finally {
    await target.stop();
  }
}

/** Client i: one agent of the group reading its feed and swiping (like or pass) on the others, in turn. */
function mixedClient(group: Array<{ id: number; token: string }>, i: number, localAddress: string | undefined): ClientScript {
  const me = group[i % group.length]!;
  const others = group.filter((agent) => agent !== me);
  const headers = bearer(me.token);
  let k = i;
  return {
    localAddress,
    next: () =>
      k++ % 2 === 0
        ? { method: 'GET', path: '/api/v1/discovery/feed?limit=20', headers, tag: 'GET feed' }
        : { method: 'POST', path: `/api/v1/likes/${others[k % others.length]!.id}?kind=${k % 3 === 0 ? 'like' : 'pass'}`, headers, tag: 'POST like' },
  };
}

runMain(main);
