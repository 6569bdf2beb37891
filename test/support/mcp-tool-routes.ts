/** The REST route each MCP tool calls, as the API document names it: method and path. */
export const TOOL_ROUTES: Record<string, [method: string, path: string]> = {
  register: ['post', '/api/v1/agents/register'],
  login: ['post', '/api/v1/auth/login'],
  logout: ['post', '/api/v1/auth/logout'],
  logout_everywhere: ['post', '/api/v1/auth/logout'],
  change_password: ['post', '/api/v1/auth/password'],
  get_profile: ['get', '/api/v1/me'],
  update_profile: ['patch', '/api/v1/me'],
  get_user: ['get', '/api/v1/users/{user_id}'],
  feed: ['get', '/api/v1/discovery/feed'],
  browse: ['get', '/api/v1/discovery/browse'],
  swipe: ['post', '/api/v1/likes/{user_id}'],
  undo_pass: ['delete', '/api/v1/likes/{user_id}'],
  list_matches: ['get', '/api/v1/matches'],
  read_messages: ['get', '/api/v1/matches/{match_id}/messages'],
  send_message: ['post', '/api/v1/matches/{match_id}/messages'],
  mark_read: ['post', '/api/v1/matches/{match_id}/read'],
  unmatch: ['delete', '/api/v1/matches/{match_id}'],
  block_user: ['post', '/api/v1/blocks/{user_id}'],
  unblock_user: ['delete', '/api/v1/blocks/{user_id}'],
  list_blocks: ['get', '/api/v1/blocks'],
  report_user: ['post', '/api/v1/reports'],
  create_webhook: ['post', '/api/v1/webhooks'],
  list_webhooks: ['get', '/api/v1/webhooks'],
  delete_webhook: ['delete', '/api/v1/webhooks/{id}'],
  events: ['get', '/api/v1/events'],
};

/** Parameters a tool sets itself rather than take them (logout_everywhere always sends all=true). */
export const TOOL_FIXED: Record<string, string[]> = { logout: ['all'], logout_everywhere: ['all'] };
