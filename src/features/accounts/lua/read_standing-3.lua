#!lua flags=no-writes
--[[
  An account's standing as a token check needs it, read at one instant: whether the account exists,
  whether it is suspended, and its credentials epoch (includes/next_epoch.lua).

  KEYS[1] <pool>:<part>:accounts   hash: id -> the account
  KEYS[2] <pool>:<part>:suspended  hash: id -> the suspension (JSON)
  KEYS[3] <pool>:<part>:epochs     hash: id -> "<epoch>" or "<epoch> <kept jti>"
  ARGV[1] id

  Returns {exists (0|1), suspended (0|1), the epoch field or ''}.

  Slot: one (hash of the account's index partition tag)
]]
local id = ARGV[1]
return {
  redis.call('HEXISTS', KEYS[1], id),
  redis.call('HEXISTS', KEYS[2], id),
  redis.call('HGET', KEYS[3], id) or '',
}
