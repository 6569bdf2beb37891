import { runLoad, type ClientScript, type LoadRequest } from '../lib/http-load.js';
import type { BenchAgent } from '../lib/population.js';
import { Recorder } from '../lib/recorder.js';
import { emptyResult, type Scenario } from '../lib/types.js';

/**
 * Registration and login through the public API. Each client connects from a loopback address of its own
 * and sends at most five registrations (the service's real limit is five per minute per address), then
 * every new agent logs in once from the address it registered from. Both are dominated by argon2id.
 */
export const authScenario: Scenario = {
  name: 'auth',
  title: 'Registration and login',
  summary: 'POST /agents/register from fresh loopback addresses (≤5 each), then POST /auth/login for every new agent',
  async run(ctx) {
    const result = emptyResult(this);
    const durationMs = ctx.options.duration * 1000;
    const connections = Math.min(ctx.options.connections, 16);

    ctx.progress.info(`registering up to ${ctx.options.registrations} agents (${connections} in flight, ${durationMs / 1000}s at most)…`);
    const registerRecorder = new Recorder();
    const mark = await ctx.monitor.mark();
    const agents = await ctx.population.register(ctx.options.registrations, {
      connections,
      durationMs,
      recorder: registerRecorder,
      onTick: (r, elapsed) => ctx.progress.tick('auth: register', r, elapsed, durationMs),
    });
    ctx.progress.endLive();
    result.phases.push({
      name: 'register',
      description: 'POST /api/v1/agents/register, each address used at most 5 times',
      connections,
      operations: registerRecorder.all(),
      window: await ctx.monitor.since(mark),
    });

    const byAddress = new Map<string | undefined, BenchAgent[]>();
    for (const agent of agents) byAddress.set(agent.address, [...(byAddress.get(agent.address) ?? []), agent]);
    const groups = [...byAddress.entries()];
    let group = 0;
    const client = (): ClientScript | null => {
      const entry = groups[group++];
      if (!entry) return null;
      const [address, members] = entry;
      let i = 0;
      return {
        localAddress: address,
        next: (): LoadRequest | null => {
          const agent = members[i++];
          if (!agent) return null;
          return {
            method: 'POST',
            path: '/api/v1/auth/login',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ email: agent.email, password: agent.password }),
            tag: 'login',
          };
        },
      };
    };
    ctx.progress.info(`logging in the ${agents.length} new agents…`);
    const loginMark = await ctx.monitor.mark();
    const loginRecorder = await runLoad({
      host: ctx.target.host,
      port: ctx.target.port,
      ports: ctx.target.ports,
      connections,
      durationMs,
      maxRequests: agents.length,
      requestTimeoutMs: 30_000,
      client,
      onTick: (r, elapsed) => ctx.progress.tick('auth: login', r, elapsed, durationMs),
    });
    ctx.progress.endLive();
    result.phases.push({
      name: 'login',
      description: 'POST /api/v1/auth/login, once per new agent, from its registration address',
      connections,
      operations: loginRecorder.all(),
      window: await ctx.monitor.since(loginMark),
    });
    result.figures.agents_registered = agents.length;
    result.notes.push(
      'Both endpoints hash or verify an argon2id password (19 MiB, 2 passes) on purpose: their throughput is bounded by that cost, not by the HTTP or Redis path.',
    );
    return result;
  },
};
