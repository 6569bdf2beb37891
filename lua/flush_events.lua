#!lua flags=allow-oom
--[[
  Flushes one pending-event record of the outbox: appends its event entries to their streams (exactly as
  lua/append_events.lua does: trimmed by age and length, each announced on pub/sub) and deletes the
  record, all at once. When the record is already gone (another process flushed it) nothing is appended,
  so a committed write's events are appended exactly once however many processes try.

  A message's record names its match (guard keys): when the match has ended meanwhile, its thread is
  deleted and so is the record, with nothing appended; otherwise every entry id appended is noted in the
  match's event list, so that ending the match removes these entries again (lua/end_match.lua).

  KEYS[1]       outbox:<pool>               pending id -> record
  KEYS[2]       outbox:<pool>:due           pending id -> commit time, ms
  KEYS[3], [4]  only when ARGV[2] is 2: match:<pool>:<id>, match-events:<pool>:<id>
  KEYS[3+g..]   the streams to append to (g = ARGV[2])
  ARGV[1]       pending id
  ARGV[2]       g, the number of guard keys: 0, or 2 for a message
  ARGV[3]       pub/sub channel to announce on
  ARGV[4]       retention in ms (see lua/append_events.lua)
  ARGV[5+3i-3]  for the i-th stream: the length cap (approximate)
  ARGV[5+3i-2]  for the i-th stream: the route the announcement names (a uWS topic)
  ARGV[5+3i-1]  for the i-th stream: the frame JSON without its id

  Returns 1 when the events were appended; 0 when the record was gone or its match had ended.

  Flagged allow-oom: it completes a write Redis already took (its pending record is stored), so a full
  Redis delays no event; one call appends a few small entries to streams capped by length and age, and
  deletes the record.

  Slot: several (outbox:<pool>, outbox:<pool>:due, guard keys, streams): not yet cluster-ready
]]
local id = ARGV[1]
if redis.call('HEXISTS', KEYS[1], id) == 0 then return 0 end
redis.call('HDEL', KEYS[1], id)
redis.call('ZREM', KEYS[2], id)

local guards = tonumber(ARGV[2])
if guards == 2 and redis.call('HEXISTS', KEYS[3], 'ended_at') == 1 then return 0 end

local channel = ARGV[3]
local retention = tonumber(ARGV[4])
local t = redis.call('TIME')
local oldest = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) - retention

for i = 3 + guards, #KEYS do
  local key = KEYS[i]
  local base = 5 + (i - 3 - guards) * 3
  local body = ARGV[base + 2]
  local entry = redis.call('XADD', key, 'MAXLEN', '~', ARGV[base], '*', 'e', body)
  redis.call('XTRIM', key, 'MINID', '~', oldest)
  redis.call('PEXPIRE', key, retention)
  redis.call('PUBLISH', channel, ARGV[base + 1] .. '\n' .. entry .. '\n{"id":"' .. entry .. '",' .. string.sub(body, 2))
  if guards == 2 then redis.call('RPUSH', KEYS[4], key .. ' ' .. entry) end
end
return 1
