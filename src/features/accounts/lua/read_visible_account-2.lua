#!lua flags=no-writes
--[[
  An account as stored, unless it is suspended: what a swipe needs of its target (a suspended account is
  answered as absent), read at one instant.

  KEYS[1] <pool>:<part>:accounts   hash: id -> the account
  KEYS[2] <pool>:<part>:suspended  hash: id -> the suspension (JSON)
  ARGV[1] id

  Returns the stored account, or false (nil) when there is none or it is suspended.

  Slot: one (hash of the account's index partition tag)
]]
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return false end
return redis.call('HGET', KEYS[1], ARGV[1])
