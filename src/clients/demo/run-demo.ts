import type { Logger } from '../../platform/logger.js';
import { createServer } from 'node:net';
import { JsonClient } from '../json-client.js';
import { PERSONAS } from './personas.js';
import { SimulatedAgent } from './simulated-agent.js';

export type DemoOptions = { minPauseMs?: number; maxPauseMs?: number };

/**
 * `npm run demo`: a handful of simulated agents that register, swipe, match and chat through the public
 * HTTP API of the service at `baseUrl`, each from its own loopback address (127.0.0.x), so /spectator
 * comes alive. Where the system has only 127.0.0.1 (macOS), they all share it, and the registration limit
 * paces them. Runs until the process stops.
 */
export async function runDemo(baseUrl: string, logger: Logger, { minPauseMs = 1_000, maxPauseMs = 4_000 }: DemoOptions = {}): Promise<void> {
  const ownAddresses = await canBind('127.0.0.10');
  const agents = PERSONAS.map((persona, i) => {
    const client = new JsonClient(baseUrl, { localAddress: ownAddresses ? `127.0.0.${10 + i}` : undefined, maxSockets: 4, timeoutMs: 10_000 });
    return new SimulatedAgent(persona, client, logger);
  });
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

/** Whether this machine routes `address` to itself (all of 127.0.0.0/8 on Linux, only 127.0.0.1 on macOS). */
function canBind(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(0, address, () => probe.close(() => resolve(true)));
  });
}
