#!lua flags=allow-oom
--[[
  Closes an ended match's thread for one reader of it (one of its users, or the spectators): notes the
  match as ended for that reader, so that no message of it is appended to the reader's stream from now on
  (lua/append_event.lua), deletes the thread's entries already appended there, and takes the match out of
  the reader's match list. Idempotent: a follow-up step of lua/end_match.lua.

  KEYS[1] the reader's ended matches (set of match ids)
  KEYS[2] the thread's entry list of the reader's stream
  KEYS[3] the reader's stream
  KEYS[4] optional: the reader's match list (sorted set), for a user
  ARGV[1] match id

  Returns the number of entries deleted.

  Flagged allow-oom: it completes an unmatch Redis already took, and mostly deletes; it adds one member to
  the reader's ended set.

  Slot: one (hash of the reader's tag: the user's shard, or {spectator})
]]
redis.call('SADD', KEYS[1], ARGV[1])
local deleted = 0
for _, entry in ipairs(redis.call('LRANGE', KEYS[2], 0, -1)) do
  deleted = deleted + redis.call('XDEL', KEYS[3], entry)
end
redis.call('DEL', KEYS[2])
if KEYS[4] then redis.call('ZREM', KEYS[4], ARGV[1]) end
return deleted
