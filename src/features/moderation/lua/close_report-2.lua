#!lua
--[[
  Closes an open report (resolved or dismissed): it leaves the open list and its record is deleted.

  KEYS[1] the pool's open reports (hash: id → JSON)
  KEYS[2] the pool's open report ids (sorted set)
  ARGV[1] the report id

  Returns 1 when it was open, 0 otherwise.

  Slot: one (hash of the pool's {reports} tag)
]]
if redis.call('ZREM', KEYS[2], ARGV[1]) == 0 then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
return 1
