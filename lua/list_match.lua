#!lua flags=allow-oom
--[[
  Keeps one match list (a user's, or one partition of the pool's) in step with a match: lists a new match,
  moves it up on new activity, or takes it out once ended. A match once ended is never listed again, however
  late a step that lists it arrives: the list's ended set remembers it. Idempotent: a follow-up step of
  lua/record_swipe.lua, append_message.lua and end_match.lua.

  KEYS[1] the match list: match id -> last activity, ms
  KEYS[2] the list's ended set: match ids
  ARGV[1] match id
  ARGV[2] add | touch | remove
  ARGV[3] activity, ms (add and touch)

  Flagged allow-oom: it completes a match, message or unmatch Redis already took; one call changes one
  entry of a list and of its ended set.

  Slot: one (hash of the list's tag: the user's shard, or the pool partition's)
]]
local id, mode = ARGV[1], ARGV[2]
if mode == 'remove' then
  redis.call('SADD', KEYS[2], id)
  return redis.call('ZREM', KEYS[1], id)
end
if redis.call('SISMEMBER', KEYS[2], id) == 1 then return 0 end
-- GT: a process whose clock lags cannot move a match back in the list; XX: a touch never lists anew.
if mode == 'touch' then return redis.call('ZADD', KEYS[1], 'XX', 'GT', ARGV[3], id) end
return redis.call('ZADD', KEYS[1], 'GT', ARGV[3], id)
