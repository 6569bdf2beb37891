#!lua
--[[
  Closes an open report (resolved or dismissed): it leaves the open list, its record is deleted, and its
  reporter has one open report less.

  KEYS[1] the pool's open reports (hash: id → JSON)
  KEYS[2] the pool's open report ids (sorted set)
  KEYS[3] the pool's open reports per reporter (hash: reporter id → count)
  ARGV[1] the report id

  Returns 1 when it was open, 0 otherwise.

  Slot: one (hash of the pool's {reports} tag)
]]
if redis.call('ZREM', KEYS[2], ARGV[1]) == 0 then return 0 end
local report = redis.call('HGET', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[1], ARGV[1])
local reporter = report and string.match(report, '"reporter_id":(%d+)')
-- Never below 0 (a report filed before reporters were counted was never counted), and gone at 0.
if reporter and redis.call('HINCRBY', KEYS[3], reporter, -1) <= 0 then redis.call('HDEL', KEYS[3], reporter) end
return 1
