import type { Scenario } from '../lib/types.js';
import { agentLifeScenario } from './agent-life.js';
import { authScenario } from './auth.js';
import { adversarialBrowseScenario, discoveryScaleScenario } from './discovery-scale.js';
import { discoveryScenario } from './discovery.js';
import { matchingScenario } from './matching.js';
import { soakScenario } from './soak.js';
import { spectatorScenario } from './spectator.js';
import { swipesScenario } from './swipes.js';
import { webhooksScenario } from './webhooks.js';

/** Every scenario, in the order a full run takes them (later ones reuse agents the earlier ones made). */
export const SCENARIOS: Scenario[] = [
  authScenario,
  discoveryScenario,
  swipesScenario,
  agentLifeScenario,
  webhooksScenario,
  spectatorScenario,
  soakScenario,
  discoveryScaleScenario,
  adversarialBrowseScenario,
  matchingScenario,
];

export const DEFAULT_SCENARIOS = SCENARIOS.map((s) => s.name);
