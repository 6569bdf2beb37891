import { z } from 'zod';

/** The JSON answers of the operations routes, as the OpenAPI document describes them. */

export const healthSchema = z.object({ status: z.literal('ok') }).meta({ description: 'The process is up.' });

export const readySchema = z.object({ status: z.literal('ready') }).meta({ description: 'The store answered.' });

const agentSkillSchema = z.object({ id: z.string(), name: z.string(), description: z.string(), tags: z.array(z.string()), examples: z.array(z.string()) });

export const agentCardSchema = z
  .object({
    protocolVersion: z.string(),
    name: z.string(),
    description: z.string(),
    url: z.string(),
    preferredTransport: z.string(),
    version: z.string(),
    provider: z.object({ organization: z.string(), url: z.string() }),
    documentationUrl: z.string(),
    capabilities: z.object({ streaming: z.boolean(), pushNotifications: z.boolean(), stateTransitionHistory: z.boolean() }),
    securitySchemes: z.looseObject({}),
    security: z.array(z.looseObject({})),
    defaultInputModes: z.array(z.string()),
    defaultOutputModes: z.array(z.string()),
    skills: z.array(agentSkillSchema).meta({ description: "The agents' routes, a skill per group." }),
  })
  .meta({ id: 'AgentCard', description: 'An A2A agent card (protocol 0.3).' });
