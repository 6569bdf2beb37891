--[[
  Writes a commit's pending record to its shard's outbox (src/platform/outbox/outbox-repository.ts), in the commit's own
  atomic step: the outbox steps its write still needs in other hash slots, as a JSON array of effects
  (read by src/platform/outbox/outbox-effects.ts, each effect checked by the schema its handler registers), due from `at` (the commit time, ms). Returns the record.
  cjson writes an empty Lua table as {}: an effect leaves an empty list out rather than hold one.
]]
local function write_outbox(outbox, due, pending_id, effects, at)
  local record = cjson.encode(effects)
  redis.call('HSET', outbox, pending_id, record)
  redis.call('ZADD', due, at, pending_id)
  return record
end
