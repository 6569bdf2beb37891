import type { Logger } from '../../platform/logger.js';
import type { JsonClient, JsonResponse } from '../json-client.js';
import { pick, smallTalk, type Persona } from './personas.js';

const PASSWORD = 'Demo-Agent-Pass-1!';

type Joined = { token: string; user_id: number };
type FeedEntry = { user: { id: number; display_name: string }; shared_interests: string[] };
type MatchEntry = { id: number; user: { display_name: string }; shared_interests: string[]; last_message: { sender_id: number } | null };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One made-up agent that uses the public API like any other client: register, swipe, match, chat. */
export class SimulatedAgent {
  private token = '';
  private userId = 0;

  constructor(
    readonly persona: Persona,
    private readonly client: JsonClient,
    private readonly logger: Logger,
  ) {}

  get name() {
    return this.persona.display_name;
  }

  /** Registers, or logs in when an earlier demo run already registered this persona. */
  async join(): Promise<void> {
    const email = `${this.persona.slug}@demo-agents.example.com`;
    const { slug: _slug, ...profile } = this.persona;
    for (let attempt = 0; attempt < 5; attempt++) {
      let res = await this.client.request<Joined>('POST', '/api/v1/agents/register', { body: { ...profile, email, password: PASSWORD } });
      if (res.status === 409) res = await this.client.request<Joined>('POST', '/api/v1/auth/login', { body: { email, password: PASSWORD } });
      if (res.status === 200 || res.status === 201) {
        this.token = res.body.token;
        this.userId = res.body.user_id;
        return;
      }
      if (res.status !== 429) throw new Error(`${this.name} could not join: ${res.status} ${JSON.stringify(res.body)}`);
      await sleep((Number(res.headers['retry-after']) || 5) * 1000);
    }
    throw new Error(`${this.name} could not join: still rate limited`);
  }

  /** One step of behaviour: mostly chatting once there are matches, otherwise swiping. */
  async act(): Promise<void> {
    if (Math.random() < 0.4 || !(await this.chat())) await this.swipe();
  }

  private async swipe(): Promise<void> {
    const feed = await this.get<{ items?: FeedEntry[] }>('/api/v1/discovery/feed?limit=5');
    const entry = feed.status === 200 ? feed.body.items?.[0] : undefined;
    if (!entry) return;
    const roll = Math.random();
    const kind = roll < 0.1 ? 'super_like' : roll < (entry.shared_interests.length > 0 ? 0.2 : 0.45) ? 'pass' : 'like';
    const res = await this.client.request<{ matched?: boolean }>('POST', `/api/v1/likes/${entry.user.id}?kind=${kind}`, { token: this.token });
    if (res.status === 200 && res.body.matched && kind !== 'pass') {
      this.logger.info(`demo: ${this.name} matched with ${entry.user.display_name}`);
    }
  }

  /** Writes in one of its conversations; false when it has none. */
  private async chat(): Promise<boolean> {
    const matches = await this.get<{ items: MatchEntry[] }>('/api/v1/matches?limit=20');
    const items: MatchEntry[] = matches.status === 200 ? matches.body.items : [];
    if (items.length === 0) return false;
    const match = pick(items);
    const last = match.last_message;
    if (last && last.sender_id === this.userId && Math.random() < 0.75) return true; // waits for a reply
    if (last && Math.random() < 0.02) {
      await this.client.request('DELETE', `/api/v1/matches/${match.id}`, { token: this.token });
      this.logger.info(`demo: ${this.name} unmatched ${match.user.display_name}`);
      return true;
    }
    const body = smallTalk(!last, match.user.display_name, match.shared_interests);
    await this.client.request('POST', `/api/v1/matches/${match.id}/messages`, { token: this.token, body: { body } });
    return true;
  }

  private get<T>(path: string): Promise<JsonResponse<T>> {
    return this.client.get<T>(path, { token: this.token });
  }
}
