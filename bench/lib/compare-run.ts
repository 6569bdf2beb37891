import { Redis } from 'ioredis';
import { JsonClient } from '../../src/clients/json-client.js';
import { REPO_ROOT } from './children.js';
import { compareRows, turnOrder, type CompareRun, type CompareSample, type Side } from './compare-table.js';
import { prepareSide, runTurn, type SidePlan } from './compare-phases.js';
import { closePush } from './compare-push.js';
import { checkoutRef, isDirty, resolveCommit, type RefTree } from './git-worktree.js';
import { LoopbackAddresses } from './loopback.js';
import { Monitor } from './monitor.js';
import { sleep } from './phase.js';
import { Population } from './population.js';
import type { Progress } from './progress.js';
import { waitReady } from './service-ready.js';
import { startEmbeddedService, startReplicatedService, type Target } from './target.js';
import type { BenchContext, BenchOptions } from './types.js';
import { findWrk } from './wrk.js';
import { WrkScript } from './wrk-script.js';

type SideRun = { ctx: BenchContext; plan?: SidePlan; close(): Promise<void> };

/**
 * --compare: the ref's service (from a temporary worktree) and the work tree's, each on its own embedded
 * redis-server with the bench's settings, measured in turns; the worktree and both services are gone
 * afterwards, however the run ends. --replica-ack: the work tree's service twice, each on a redis-server
 * with one replica, without ("ref") and with ("tree") the replicas' confirmation of acknowledged writes.
 */
export async function runCompare(options: BenchOptions, progress: Progress, aborted: () => boolean): Promise<{ run: CompareRun; problems: string[] }> {
  const wrkPath = options.wrk ? findWrk() : undefined;
  if (!wrkPath)
    throw new Error(
      options.wrk ? '--compare loads the swipes with wrk, which is not on PATH (Debian package wrk)' : '--compare loads the swipes with wrk: drop --no-wrk',
    );
  const replicaAck = options.replicaAck;
  const ref = replicaAck ? 'REDIS_MIN_REPLICAS_ACK=0' : options.compare!;
  const run: CompareRun = {
    ref,
    refCommit: resolveCommit(REPO_ROOT, replicaAck ? 'HEAD' : ref),
    treeCommit: resolveCommit(REPO_ROOT, 'HEAD'),
    treeDirty: isDirty(REPO_ROOT),
    installed: 'shared',
    rounds: options.compareRounds,
    samples: [],
    rows: [],
    notes: [],
  };
  const script = WrkScript.create();
  const addresses = new LoopbackAddresses(true);
  const runId = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
  const sides = new Map<Side, SideRun>();
  let tree: RefTree | undefined;
  try {
    if (!replicaAck) {
      progress.section(`checking out ${ref} (${run.refCommit.slice(0, 10)}) in a temporary worktree`);
      tree = checkoutRef(REPO_ROOT, ref, (line) => progress.info(line));
      run.installed = tree.installed;
      progress.info(`${tree.dir} (node_modules: ${tree.installed === 'shared' ? "the work tree's, same package-lock.json" : 'npm ci'})`);
    }
    for (const [side, root] of [
      ['ref', tree?.dir ?? REPO_ROOT],
      ['tree', REPO_ROOT],
    ] as const) {
      const log = (line: string) => progress.info(line);
      let target: Target;
      if (replicaAck) {
        progress.section(`starting the work tree's service on a Redis with a replica, REDIS_MIN_REPLICAS_ACK=${side === 'ref' ? 0 : 1}`);
        target = await startReplicatedService(log, side === 'ref' ? 0 : 1);
      } else {
        progress.section(`starting the ${side === 'ref' ? `service of ${ref}` : "work tree's service"} (embedded default)`);
        target = await startEmbeddedService(log, root);
      }
      const sideRun = openSide(target, { options, progress, addresses, runId: `${runId}${side}`, aborted, wrk: { path: wrkPath, script } });
      sides.set(side, sideRun);
      await waitReady(sideRun.ctx.api);
    }
    for (const [side, sideRun] of sides) {
      progress.section(`${side}: registering agents, matching the chatting pairs`);
      sideRun.plan = await prepareSide(sideRun.ctx);
    }
    // Push latency is measured under the same background load on both sides: half the ref's pass swipes/s of the round.
    let refPass = 0;
    const pushRateOf = (side: Side) => (passReqS: number) => {
      if (side === 'ref') refPass = passReqS;
      return options.backgroundFraction * refPass;
    };
    for (const turn of turnOrder(options.compareRounds)) {
      if (aborted()) {
        run.notes.push(`stopped before round ${turn.round} of ${turn.side}`);
        break;
      }
      const { ctx, plan } = sides.get(turn.side)!;
      progress.section(`round ${turn.round}: ${turn.side === 'ref' ? ref : 'work tree'}`);
      const sample: CompareSample = { ...turn, figures: await runTurn(ctx, plan!, `${turn.side} ${turn.round}`, turn.round, pushRateOf(turn.side)) };
      run.samples.push(sample);
      // Work the service left for after its answers (ranking, taste) settles before the other side's turn.
      await sleep(1_000);
    }
  } catch (error) {
    run.error = (error as Error).message;
    progress.info(`the comparison failed: ${(error as Error).stack ?? run.error}`);
  } finally {
    progress.section('stopping');
    for (const sideRun of sides.values()) {
      closePush(sideRun.plan?.push);
      await sideRun.close();
    }
    script.remove();
    tree?.remove();
  }
  run.rows = compareRows(run.samples);
  const failures = run.rows.filter((row) => row.figure.endsWith('_failures') && [...row.ref, ...row.tree].some((n) => n > 0));
  if (failures.length > 0) run.notes.push(`failed requests in ${failures.map((row) => row.figure).join(', ')}: read those figures with care`);
  const problems = [...sides.entries()].flatMap(([side, s]) => s.ctx.target.problems.map((line) => `${side}: ${line}`));
  return { run, problems };
}

function openSide(target: Target, shared: Pick<BenchContext, 'options' | 'progress' | 'addresses' | 'runId' | 'aborted' | 'wrk'>): SideRun {
  const redis = target.redisUrl ? new Redis(target.redisUrl, { lazyConnect: true, enableAutoPipelining: false, maxRetriesPerRequest: 2 }) : undefined;
  redis?.on('error', () => {});
  void redis?.connect().catch(() => {});
  const api = new JsonClient(target.baseUrl, { maxSockets: 256 });
  const monitor = new Monitor(target.baseUrl, target.pid, redis, target.metricsToken);
  monitor.start();
  const ctx: BenchContext = {
    ...shared,
    target,
    redis,
    api,
    monitor,
    population: new Population(target, shared.addresses, shared.runId, shared.progress),
    ceilings: {},
    helloNow: () => Promise.reject(new Error('no uWS ceiling in --compare')),
    helloWrkNow: () => Promise.resolve(undefined),
    facts: {},
    hasRoute: () => true,
  };
  return {
    ctx,
    close: async () => {
      monitor.stop();
      api.close();
      redis?.disconnect();
      await target.stop();
    },
  };
}
