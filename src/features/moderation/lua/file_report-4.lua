#!lua
--[[
  Files a report in the pool's open reports: a new id, the report's JSON under it, its place in the open
  list, and one more open report counted to its reporter. Nothing is ever dropped to make room: a reporter
  with ARGV[3] open reports already, or a pool with ARGV[2], is refused and nothing is written, so one
  account's reports can never push out another's.

  KEYS[1] the pool's open reports (hash: id → JSON)
  KEYS[2] the pool's open report ids (sorted set: id → id)
  KEYS[3] the pool's report id counter
  KEYS[4] the pool's open reports per reporter (hash: reporter id → count)
  ARGV[1] the report as JSON, without its id (an object: the id is added here)
  ARGV[2] the most open reports the pool keeps
  ARGV[3] the most open reports one reporter may have
  ARGV[4] the reporter's id

  Returns {'filed', id}; {'reporter_full'} or {'pool_full'} when refused.

  Slot: one (hash of the pool's {reports} tag)
]]
if tonumber(redis.call('HGET', KEYS[4], ARGV[4]) or '0') >= tonumber(ARGV[3]) then return {'reporter_full'} end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then return {'pool_full'} end
local id = redis.call('INCR', KEYS[3])
local report = cjson.decode(ARGV[1])
report['id'] = id
redis.call('HSET', KEYS[1], id, cjson.encode(report))
redis.call('ZADD', KEYS[2], id, id)
redis.call('HINCRBY', KEYS[4], ARGV[4], 1)
return {'filed', id}
