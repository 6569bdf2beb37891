#!lua flags=allow-oom
--[[
  Keeps one match list (a user's, or one partition of the pool's) in step with a match: lists a new match,
  moves it up on new activity, or takes it out once ended. A match once ended is never listed again, however
  late a step that lists it arrives: the list's ended set remembers it for ARGV[4] ms (far longer than a
  pending record waits for its steps), trimmed by age here, so the set holds a day's unmatches at most (a
  user's: as long as an ended thread is kept for reports, when longer; the user's leaving finds them there).
  Idempotent: a outbox step of lua/record_swipe-5.lua, append_message-7.lua and end_match-7.lua.

  KEYS[1] the match list: match id -> last activity, ms
  KEYS[2] the list's ended set: match id -> ended, ms
  ARGV[1] match id
  ARGV[2] add | touch | remove
  ARGV[3] activity, ms (add and touch)
  ARGV[4] how long an ended match is remembered, ms

  Flagged allow-oom: it completes a match, message or unmatch Redis already took; one call changes one
  entry of a list and of its ended set.

  Slot: one (hash of the list's tag: the user's shard, or the pool partition's)
]]
--- @include "includes/now_ms"

local id, mode = ARGV[1], ARGV[2]
-- An ended set of the earlier layout (a plain set, never trimmed) gives way to the bounded one.
if redis.call('TYPE', KEYS[2]).ok == 'set' then redis.call('UNLINK', KEYS[2]) end
if mode == 'remove' then
  local now = now_ms()
  redis.call('ZADD', KEYS[2], now, id)
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[4]))
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
  return redis.call('ZREM', KEYS[1], id)
end
if redis.call('ZSCORE', KEYS[2], id) then return 0 end
-- GT: a process whose clock lags cannot move a match back in the list; XX: a touch never lists anew.
if mode == 'touch' then return redis.call('ZADD', KEYS[1], 'XX', 'GT', ARGV[3], id) end
return redis.call('ZADD', KEYS[1], 'GT', ARGV[3], id)
