import type { Logger } from '../logger.js';
import { DemoClient } from './demo-client.js';
import { PERSONAS } from './personas.js';
import { SimulatedAgent } from './simulated-agent.js';

export type DemoOptions = { minPauseMs?: number; maxPauseMs?: number };

/**
 * `npm run demo`: a handful of simulated agents that register, swipe, match and chat through the public
 * HTTP API of the service at `baseUrl`, each from its own loopback address (127.0.0.x), so /spectator
 * comes alive. Runs until the process stops.
 */
export async function runDemo(baseUrl: string, logger: Logger, { minPauseMs = 1_000, maxPauseMs = 4_000 }: DemoOptions = {}): Promise<void> {
  const agents = PERSONAS.map((persona, i) => new SimulatedAgent(persona, new DemoClient(baseUrl, `127.0.0.${10 + i}`), logger));
  const joined: SimulatedAgent[] = [];
  await Promise.all(
    agents.map(async (agent) => {
      try {
        await agent.join();
        joined.push(agent);
      } catch (error) {
        logger.warn(`demo: ${(error as Error).message}`);
      }
    }),
  );
  logger.info(`demo: ${joined.length} simulated agents are swiping and chatting; watch them at ${baseUrl}/spectator`);
  for (const agent of joined) void live(agent);

  async function live(agent: SimulatedAgent) {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, minPauseMs + Math.random() * (maxPauseMs - minPauseMs)));
      try {
        await agent.act();
      } catch (error) {
        logger.debug({ err: (error as Error).message }, `demo: ${agent.name} stumbled`);
      }
    }
  }
}
