import { runLoad, type ClientScript, type LoadRequest } from './http-load.js';
import { JsonClient } from '../../src/clients/json-client.js';
import type { LoopbackAddresses } from './loopback.js';
import { agentProfile } from './profiles.js';
import type { Progress } from './progress.js';
import { Recorder } from './recorder.js';
import type { Target } from './target.js';

export type BenchAgent = { n: number; id: number; token: string; email: string; password: string; interests: string[]; address?: string };

/** Registrations per source address: the service allows 5 per minute per address, every attempt counting. */
export const REGISTRATIONS_PER_ADDRESS = 5;
const REGISTER_PATH = '/api/v1/agents/register';

export type RegisterOptions = {
  /** Registrations in flight at once. */
  connections?: number;
  /** Time bound; fewer agents than asked for may come back when it runs out. */
  durationMs?: number;
  recorder?: Recorder;
  onTick?: (recorder: Recorder, elapsedMs: number) => void;
};

/**
 * The bench's agents, all registered through the public API from loopback addresses of their own (at most
 * five per address, so the real limit is never hit and never switched off). Scenarios either take fresh
 * agents (they will swipe, so they are used up) or share the ones already made.
 */
export class Population {
  readonly all: BenchAgent[] = [];
  private readonly fresh: BenchAgent[] = [];
  private nextN = 0;

  constructor(
    private readonly target: Target,
    private readonly addresses: LoopbackAddresses,
    private readonly runId: string,
    private readonly progress: Progress,
  ) {}

  /** `count` agents no scenario has used yet, registering what is missing. */
  async take(count: number, purpose: string): Promise<BenchAgent[]> {
    if (this.fresh.length < count) await this.ensure(count - this.fresh.length, purpose);
    return this.fresh.splice(0, count);
  }

  /** `count` agents for reading only (they may have been used); registers more when there are too few. */
  async share(count: number, purpose: string): Promise<BenchAgent[]> {
    if (this.all.length < count) await this.ensure(count - this.all.length, purpose);
    return this.all.slice(0, count);
  }

  private async ensure(missing: number, purpose: string) {
    this.progress.info(`registering ${missing} agents through the API for ${purpose}…`);
    const started = performance.now();
    let made = 0;
    for (let attempt = 0; attempt < 3 && made < missing; attempt++) {
      made += (await this.register(missing - made, { durationMs: Math.max(60_000, missing * 200) })).length;
    }
    if (made < missing) throw new Error(`could register only ${made} of ${missing} agents for ${purpose}`);
    this.progress.info(`registered ${made} agents in ${((performance.now() - started) / 1000).toFixed(1)}s`);
  }

  /**
   * Registers up to `count` agents through POST /api/v1/agents/register. A 429 (an address was already used
   * within the window, e.g. by an earlier run) moves that registration to a fresh address.
   */
  async register(count: number, options: RegisterOptions = {}): Promise<BenchAgent[]> {
    if (!this.addresses.enabled) return this.registerPaced(count, options.durationMs ?? 60_000, options.recorder);
    const pending: number[] = [];
    for (let i = 0; i < count; i++) pending.push(this.nextN++);
    const made: BenchAgent[] = [];
    const client = (): ClientScript | null => {
      if (pending.length === 0) return null;
      const address = this.addresses.next();
      let sent = 0;
      const numbers = new Map<LoadRequest, number>();
      return {
        localAddress: address,
        next: () => {
          if (sent >= REGISTRATIONS_PER_ADDRESS || pending.length === 0) return null;
          sent++;
          const n = pending.shift()!;
          const request: LoadRequest = {
            method: 'POST',
            path: REGISTER_PATH,
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify(agentProfile(this.runId, n)),
            tag: 'register',
          };
          numbers.set(request, n);
          return request;
        },
        onResponse: (request, status, body) => {
          const n = numbers.get(request)!;
          numbers.delete(request);
          if (status === 201) {
            made.push(this.add(n, JSON.parse(body.toString()) as RegisterReply, address));
          } else if (status === 429 || status === 503) {
            pending.push(n);
            sent = REGISTRATIONS_PER_ADDRESS;
          }
        },
      };
    };
    const recorder = options.recorder ?? new Recorder();
    await runLoad({
      host: this.target.host,
      port: this.target.port,
      ports: this.target.ports,
      connections: Math.min(options.connections ?? 8, count),
      durationMs: options.durationMs ?? 60_000,
      maxRequests: count * 3,
      requestTimeoutMs: 30_000,
      client,
      recorder,
      onTick: options.onTick,
    });
    return made;
  }

  /**
   * From one source address (a target off loopback): one registration at a time, waiting out each 429's
   * Retry-After, so the real limit paces the run (five a minute); bounded by `durationMs`.
   */
  private async registerPaced(count: number, durationMs: number, recorder?: Recorder): Promise<BenchAgent[]> {
    const api = new JsonClient(this.target.baseUrl, { maxSockets: 256 });
    const deadline = performance.now() + durationMs;
    const made: BenchAgent[] = [];
    try {
      while (made.length < count && performance.now() < deadline) {
        const n = this.nextN++;
        const started = performance.now();
        const res = await api.post<RegisterReply>(REGISTER_PATH, { body: agentProfile(this.runId, n) });
        recorder?.record('register', res.status, performance.now() - started);
        if (res.status === 201) made.push(this.add(n, res.body));
        else if (res.status === 429) {
          const wait = Number(res.headers['retry-after'] ?? 12) * 1000;
          this.progress.info(`registration limit reached: waiting ${wait / 1000}s (the target is not on loopback, so clients cannot spread over addresses)`);
          await new Promise((r) => setTimeout(r, Math.min(wait, Math.max(0, deadline - performance.now()))));
        } else throw new Error(`registration answered ${res.status}: ${res.text.slice(0, 200)}`);
      }
    } finally {
      api.close();
    }
    return made;
  }

  private add(n: number, reply: RegisterReply, address?: string): BenchAgent {
    const profile = agentProfile(this.runId, n);
    const agent: BenchAgent = {
      n,
      id: reply.user_id,
      token: reply.token,
      email: profile.email,
      password: profile.password,
      interests: profile.interests.split(', '),
      address,
    };
    this.all.push(agent);
    this.fresh.push(agent);
    return agent;
  }
}

type RegisterReply = { token: string; user_id: number };
