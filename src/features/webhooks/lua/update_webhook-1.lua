#!lua
--[[
  Sets fields of an existing webhook, only if one field still holds an expected value (compare-and-set):
  a delivery advances the cursor from the event it started from, a disable happens once.

  KEYS[1] the webhook's hash
  ARGV[1] the field to compare, or '' to set unconditionally
  ARGV[2] the value it must hold (a missing field holds '')
  ARGV[3..] fields and values to set (pairs)

  Returns 1 when set, 0 when the webhook does not exist or the field holds another value.

  Slot: one (hash of the account's shard tag)
]]
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[1] ~= '' and (redis.call('HGET', KEYS[1], ARGV[1]) or '') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 3))
return 1
