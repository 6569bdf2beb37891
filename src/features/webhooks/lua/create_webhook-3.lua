#!lua
--[[
  Creates one webhook of an account, unless the account already has as many as it may: adds its id to
  the account's webhook set and writes its hash. The delivery cursor starts at the newest entry of the
  account's event stream, so a webhook receives the events appended after it was created.

  KEYS[1] the account's webhook ids (set)
  KEYS[2] the new webhook's hash
  KEYS[3] the account's event stream
  ARGV[1] the most webhooks an account may have
  ARGV[2] the webhook id
  ARGV[3..] the hash's fields and values (pairs)

  Returns 1 when created, 0 when the account is at its cap.

  Slot: one (hash of the account's shard tag)
]]
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
local newest = redis.call('XREVRANGE', KEYS[3], '+', '-', 'COUNT', 1)
local cursor = '0-0'
if newest[1] then cursor = newest[1][1] end
redis.call('HSET', KEYS[2], 'cursor', cursor, unpack(ARGV, 3))
redis.call('SADD', KEYS[1], ARGV[2])
return 1
