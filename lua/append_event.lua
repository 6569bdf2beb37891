#!lua flags=allow-oom
--[[
  Appends one event entry to one stream, trims it by age and length, and announces the new entry on the
  stream's sharded pub/sub channel so that each server process can relay it to its own sockets at once.
  The entry id that XADD assigns is the event id clients resume from (`since`).

  Each entry stores one field, `e`: the client frame as JSON without its id ('{"type":..,"at":..,"data":..}').
  The announced frame is that JSON with `"id":"<entry id>",` spliced in first, so every reader builds the
  same frame with string concatenation and no JSON parsing.

  A follow-up step of a committed write names itself (ARGV[1]): a step already in the applied set appends
  nothing, so each committed event is appended once however often its record is completed. A message's
  step names its match (ARGV[7]): nothing is appended once the match's thread is closed for this reader,
  and the new entry id is noted in the thread's list, which closing the thread deletes again
  (lua/close_thread.lua).

  KEYS[1] the stream (am:<pool>:{shard}:events:<user id>, or am:agent:{spectator}:events)
  KEYS[2] the slot's applied set: step id -> ms
  KEYS[3] the reader's ended matches (set of match ids)
  KEYS[4] the thread's entry list of this stream (used only for a message)
  ARGV[1] step id, or '' for an event that is no follow-up step (appended unconditionally)
  ARGV[2] retention in ms: entries (and applied steps) older than this are trimmed (approximately, never
          younger ones), and a stream that gets no entry for that long expires
  ARGV[3] the length cap (approximate; a memory guard, far above a day's traffic)
  ARGV[4] the sharded pub/sub channel to announce on
  ARGV[5] the route the announcement names (a uWS topic)
  ARGV[6] the frame JSON without its id
  ARGV[7] the match id of a message's thread, or ''

  Announcement format: "<route>\n<entry id>\n<frame JSON>".
  Returns the new entry id, or '' when nothing was appended.

  Flagged allow-oom: it completes a write Redis already took (a match, message or unmatch), so no stored
  change ever misses its events; one call appends one small entry to a stream capped by length and age.

  Slot: one (hash of the stream's tag: the reader's shard, or {spectator})
]]
local stream, applied, ended, thread = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local step, retention, thread_of = ARGV[1], tonumber(ARGV[2]), ARGV[7]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

if step ~= '' then
  if redis.call('ZSCORE', applied, step) then return '' end
  redis.call('ZADD', applied, now, step)
  redis.call('ZREMRANGEBYSCORE', applied, '-inf', now - retention)
  redis.call('PEXPIRE', applied, retention)
end
if thread_of ~= '' and redis.call('SISMEMBER', ended, thread_of) == 1 then return '' end

local body = ARGV[6]
local id = redis.call('XADD', stream, 'MAXLEN', '~', ARGV[3], '*', 'e', body)
redis.call('XTRIM', stream, 'MINID', '~', now - retention)
redis.call('PEXPIRE', stream, retention)
if thread_of ~= '' then
  redis.call('RPUSH', thread, id)
  redis.call('PEXPIRE', thread, retention)
end
redis.call('SPUBLISH', ARGV[4], ARGV[5] .. '\n' .. id .. '\n{"id":"' .. id .. '",' .. string.sub(body, 2))
return id
