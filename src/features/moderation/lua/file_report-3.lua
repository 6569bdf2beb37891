#!lua
--[[
  Files a report in the pool's open reports: a new id, the report's JSON under it, and its place in the
  open list. Past the cap, the oldest open reports are dropped (the queue keeps taking reports; operators
  see the newest REPORTS_MAX_OPEN).

  KEYS[1] the pool's open reports (hash: id → JSON)
  KEYS[2] the pool's open report ids (sorted set: id → id)
  KEYS[3] the pool's report id counter
  ARGV[1] the report as JSON, without its id (an object: the id is added here)
  ARGV[2] the most open reports the pool keeps

  Returns the new report's id.

  Slot: one (hash of the pool's {reports} tag)
]]
local id = redis.call('INCR', KEYS[3])
local report = cjson.decode(ARGV[1])
report['id'] = id
redis.call('HSET', KEYS[1], id, cjson.encode(report))
redis.call('ZADD', KEYS[2], id, id)
local excess = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[2])
if excess > 0 then
  local dropped = redis.call('ZPOPMIN', KEYS[2], excess)
  for i = 1, #dropped, 2 do redis.call('HDEL', KEYS[1], dropped[i]) end
end
return id
