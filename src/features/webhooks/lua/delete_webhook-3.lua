#!lua
--[[
  Deletes one webhook of an account: its id from the account's set, its hash and its delivery log.

  KEYS[1] the account's webhook ids (set)
  KEYS[2] the webhook's hash
  KEYS[3] the webhook's delivery log (list)
  ARGV[1] the webhook id

  Returns 1 when deleted, 0 when there was no such webhook.

  Slot: one (hash of the account's shard tag)
]]
local removed = redis.call('SREM', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2], KEYS[3])
return removed
