#!lua flags=allow-oom
--[[
  Appends one event entry to each of several streams, trims each by age and length, and announces every
  new entry on a pub/sub channel so that each server process can relay it to its own sockets at once.
  The entry id that XADD assigns is the event id clients resume from (`since`).

  Each entry stores one field, `e`: the client frame as JSON without its id ('{"type":..,"at":..,"data":..}').
  The announced frame is that JSON with `"id":"<entry id>",` spliced in first, so every reader builds the
  same frame with string concatenation and no JSON parsing.

  KEYS[i]        the streams to append to (events:<pool>:<user id>, events:spectator:agent)
  ARGV[1]        pub/sub channel to announce on
  ARGV[2]        retention in ms: entries older than this are trimmed (approximately, never younger ones),
                 and a stream that gets no entry for that long expires
  ARGV[2 + 3i-2] for KEYS[i]: the length cap (approximate; a memory guard, far above a day's traffic)
  ARGV[2 + 3i-1] for KEYS[i]: the route the announcement names (a uWS topic)
  ARGV[2 + 3i]   for KEYS[i]: the frame JSON without its id

  Announcement format: "<route>\n<entry id>\n<frame JSON>".
  Returns the new entry ids, in KEYS order.

  Flagged allow-oom: it completes a write Redis already took (a match, message or unmatch), so no stored
  change ever misses its events; one call appends a few small entries to streams capped by length and age.

  Slot: several (each recipient's events:<pool>:<id> and events:spectator:agent): not yet cluster-ready
]]
local channel = ARGV[1]
local retention = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local oldest = now - retention

local ids = {}
for i, key in ipairs(KEYS) do
  local base = 2 + (i - 1) * 3
  local maxlen = ARGV[base + 1]
  local route = ARGV[base + 2]
  local body = ARGV[base + 3]
  local id = redis.call('XADD', key, 'MAXLEN', '~', maxlen, '*', 'e', body)
  redis.call('XTRIM', key, 'MINID', '~', oldest)
  redis.call('PEXPIRE', key, retention)
  redis.call('PUBLISH', channel, route .. '\n' .. id .. '\n{"id":"' .. id .. '",' .. string.sub(body, 2))
  ids[i] = id
end
return ids
