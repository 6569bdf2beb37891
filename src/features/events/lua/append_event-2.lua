#!lua flags=allow-oom
--[[
  Appends one event entry to one stream, trims it by age and length, and announces the new entry on the
  stream's sharded pub/sub channel so that each server process can relay it to its own sockets at once.
  The entry id that XADD assigns is the event id clients resume from (`since`).

  An entry stores one field. Most events store `e`: the client frame as JSON without its id
  ('{"type":..,"at":..,"data":..}'). Some store a reference instead, under a field naming its kind: a
  message's event only refers to the message in its match's thread, `u` (a user's view) or `s` (the
  spectators' view) = "<match id>:<message id>", about 20 bytes; an event showing profiles keeps its spec,
  `p`. Readers build the frame again with the frame builder the appending feature registered for the kind
  (src/features/events/frame-builders.ts), and skip the entry once what it refers to is gone. The announced
  frame is always the whole frame with `"id":"<entry id>",` spliced in first.

  A outbox step of a committed write names itself (ARGV[1]): a step whose mark is in the applied set
  appends nothing (and its mark is renewed), so each committed event is appended once however often its
  record is completed while the record is pending. Marks lapse ARGV[8] ms after they were last renewed.

  KEYS[1] the stream (am:<pool>:{shard}:events:<user id>, or am:agent:{spectator}:events)
  KEYS[2] the slot's applied set: step id -> ms
  ARGV[1] step id, or '' for an event that is no outbox step (appended unconditionally)
  ARGV[2] retention in ms: entries older than this are trimmed (approximately, never younger ones), and a
          stream that gets no entry for that long expires
  ARGV[3] the length cap (approximate; a memory guard, far above a day's traffic)
  ARGV[4] the sharded pub/sub channel to announce on
  ARGV[5] the route the announcement names (a uWS topic)
  ARGV[6] the frame JSON without its id
  ARGV[7] the field to store: 'e', or the kind of the reference stored ('u', 's', 'p')
  ARGV[8] how long a step's mark is kept, ms
  ARGV[9] the value stored: '' to store ARGV[6] itself, else the reference

  Announcement format: "<route>\n<entry id>\n<frame JSON>".
  Returns the new entry id, or '' when nothing was appended.

  Flagged allow-oom: it completes a write Redis already took (a match, message or unmatch), so no stored
  change ever misses its events; one call appends one small entry to a stream capped by length and age.

  Slot: one (hash of the stream's tag: the reader's shard, or {spectator})
]]
--- @include "includes/now_ms"

local stream, applied = KEYS[1], KEYS[2]
local step, retention, marks = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[8])
local now = now_ms()

if step ~= '' then
  local seen = redis.call('ZSCORE', applied, step)
  redis.call('ZADD', applied, now, step)
  if seen then return '' end
  redis.call('ZREMRANGEBYSCORE', applied, '-inf', now - marks)
  redis.call('PEXPIRE', applied, marks)
end

local frame, stored = ARGV[6], ARGV[9]
if stored == '' then stored = frame end
local id = redis.call('XADD', stream, 'MAXLEN', '~', ARGV[3], '*', ARGV[7], stored)
redis.call('XTRIM', stream, 'MINID', '~', now - retention)
redis.call('PEXPIRE', stream, retention)
redis.call('SPUBLISH', ARGV[4], ARGV[5] .. '\n' .. id .. '\n{"id":"' .. id .. '",' .. string.sub(frame, 2))
return id
