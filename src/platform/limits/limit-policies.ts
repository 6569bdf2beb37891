import type { Config } from '../../config.js';
import type { AccountLimit, AccountLimitName } from './account-limits.js';

/** The per-address limits, from the settings. */
export const addressLimitPolicy = (config: Config) => ({
  register: { limit: config.REGISTER_RATE_LIMIT, windowSeconds: config.REGISTER_RATE_WINDOW_SECONDS },
  login: { limit: config.LOGIN_RATE_LIMIT, windowSeconds: config.LOGIN_RATE_WINDOW_SECONDS },
  spectator: { limit: config.SPECTATOR_RATE_LIMIT, windowSeconds: config.SPECTATOR_RATE_WINDOW_SECONDS },
  spectator_stream: { limit: config.SPECTATOR_UPGRADE_RATE_LIMIT, windowSeconds: config.SPECTATOR_UPGRADE_RATE_WINDOW_SECONDS },
});

/** The per-account limits, from the settings. */
export const accountLimitPolicy = (config: Config): Record<AccountLimitName, AccountLimit> => ({
  discovery: { limit: config.DISCOVERY_RATE_LIMIT, windowSeconds: config.DISCOVERY_RATE_WINDOW_SECONDS },
  message: { limit: config.MESSAGE_RATE_LIMIT, windowSeconds: config.MESSAGE_RATE_WINDOW_SECONDS },
  read: { limit: config.READ_RATE_LIMIT, windowSeconds: config.READ_RATE_WINDOW_SECONDS },
  profile: { limit: config.PROFILE_RATE_LIMIT, windowSeconds: config.PROFILE_RATE_WINDOW_SECONDS },
  webhook_test: { limit: config.WEBHOOK_TEST_RATE_LIMIT, windowSeconds: config.WEBHOOK_TEST_RATE_WINDOW_SECONDS },
  credentials: { limit: config.CREDENTIALS_RATE_LIMIT, windowSeconds: config.CREDENTIALS_RATE_WINDOW_SECONDS },
  events: { limit: config.EVENTS_RATE_LIMIT, windowSeconds: config.EVENTS_RATE_WINDOW_SECONDS },
  report: { limit: config.REPORT_DAILY_LIMIT, windowSeconds: 86_400 },
  block: { limit: config.BLOCK_RATE_LIMIT, windowSeconds: config.BLOCK_RATE_WINDOW_SECONDS },
});
