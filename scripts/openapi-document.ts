/**
 * The service's OpenAPI document, built in this process from the public routes as the server builds it for
 * GET /api/v1/openapi.json with the default settings: no server, no Redis.
 */
import { DEFAULT_CONFIG } from '../src/config.js';
import { buildOpenApi } from '../src/platform/http/openapi.js';
import { publicApiRoutes, type PublicApiServices } from '../src/public-api.js';

/** Stands for a service no handler will call: building the routes only reads their descriptions. */
function unserved(name: string): unknown {
  const refuse = () => {
    throw new Error(`${name} was used while building the OpenAPI document: building the routes must call no service`);
  };
  return new Proxy(refuse, { get: refuse, apply: refuse });
}

const services = new Proxy({} as PublicApiServices, { get: (_services, name) => unserved(String(name)) });

export function openApiDocument(): ReturnType<typeof buildOpenApi> {
  return buildOpenApi(publicApiRoutes(services, DEFAULT_CONFIG));
}
