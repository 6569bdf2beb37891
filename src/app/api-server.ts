import type { Config } from '../config.js';
import { adminApi } from '../features/moderation/index.js';
import { bearerAuthenticator } from '../platform/http/bearer.js';
import { HttpServer } from '../platform/http/server.js';
import type { Route } from '../platform/http/types.js';
import { AccountLimits } from '../platform/limits/account-limits.js';
import { AddressLimits } from '../platform/limits/address-limits.js';
import { accountLimitPolicy, addressLimitPolicy } from '../platform/limits/limit-policies.js';
import { UpgradeLimits } from '../platform/limits/upgrade-limits.js';
import type { Logger } from '../platform/logger.js';
import type { Metrics } from '../platform/metrics/metrics.js';
import { publicApiRoutes, type PublicApiServices } from '../public-api.js';
import { SocketLeases } from '../repositories.js';
import type { ServerFeatures } from './features.js';
import type { RedisConnections } from './redis-connections.js';

/** The server's uWS app, sealed and ready to listen, and the leases of its sockets (renewed until stopped). */
export type ApiServer = { http: HttpServer; socketLeases: SocketLeases };

/**
 * Every route of the features and their WebSocket endpoints on one uWS app: the public API, and the operators'
 * API over reports and suspensions, served only with ADMIN_TOKEN, its paths hidden from every request without
 * the token.
 */
export function apiServer(features: ServerFeatures, connections: RedisConnections, config: Config, logger: Logger, metrics: Metrics): ApiServer {
  const http = new HttpServer({
    logger,
    metrics,
    authenticate: bearerAuthenticator(features.tokens),
    trustProxy: config.TRUST_PROXY,
    maxConnectionsPerIp: config.MAX_CONNECTIONS_PER_IP,
  });
  const addressLimits = new AddressLimits(features.rateLimiter, addressLimitPolicy(config));
  const accountLimits = new AccountLimits(features.rateLimiter, accountLimitPolicy(config));
  const services: PublicApiServices = {
    accounts: features.accounts,
    leaving: features.leaving,
    discovery: features.discovery,
    swipes: features.swipeService,
    matches: features.matchService,
    messages: features.messageService,
    reads: features.readService,
    spectator: features.spectator,
    webhooks: features.webhooks,
    reports: features.reports,
    blocks: features.blocks,
    inbox: features.realtime.inbox!,
    addressLimits,
    accountLimits,
    metrics,
    storeAnswers: () => connections.redis.ping(),
    publicRoutes: () => http.publicRoutes,
  };
  const admin = adminApi({ reports: features.reports, suspensions: features.suspensionService, adminToken: config.ADMIN_TOKEN });
  if (admin) http.hide(admin.prefix, admin.admits);
  const routes: Route[] = [...publicApiRoutes(services, config), ...(admin?.routes ?? [])];
  for (const route of routes) http.route(route);
  // Before the fallbacks, which would otherwise answer the WebSocket paths.
  const socketLeases = new SocketLeases(connections.redis, connections.scripts, config.WS_MAX_PER_ACCOUNT).start();
  features.realtime.registerSockets(http, features.tokens, metrics, {
    upgradeLimits: new UpgradeLimits(features.rateLimiter, { limit: config.WS_UPGRADE_RATE_LIMIT, windowSeconds: config.WS_UPGRADE_RATE_WINDOW_SECONDS }),
    socketLeases,
    addressLimits,
    matchUsers: async (pool, matchId) => (await features.matches.findHead(pool, matchId))?.userIds,
    policy: {
      spectatorReplayLimit: config.SPECTATOR_REPLAY_LIMIT,
      maxPerIp: config.WS_MAX_PER_IP,
      maxPerToken: config.WS_MAX_PER_TOKEN,
      trustProxy: config.TRUST_PROXY,
    },
  });
  http.seal();
  return { http, socketLeases };
}
