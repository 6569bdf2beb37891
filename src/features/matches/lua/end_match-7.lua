#!lua
--[[
  Unmatches: marks the match ended (the ended match's hash is kept ARGV[5] seconds, then expires), closes its
  thread and leaves a tombstone on the pair so that it never matches again. The thread's read state is
  deleted; its messages are too when ARGV[6] is 0, and otherwise moved aside (RENAME: one step whatever
  the thread's size) to a key that only reports read, which expires after ARGV[6] seconds, so that an abuser
  who unmatches does not take its messages out of a report. Both users keep their swipes on each other, which keeps each out
  of the other's feed. What the end changes in other hash slots is written, in this same script, as a
  pending record to the shard's outbox (pending id "e<match id>"): the match out of both users' lists and
  the pool's, the thread's `message.created` events out of the streams they were appended to (so a deleted
  thread is not replayed either), and the `match.ended` event.

  KEYS[1] am:<pool>:{shard}:match:<id>
  KEYS[2] am:<pool>:{shard}:pair:<lo>:<hi>
  KEYS[3] am:<pool>:{shard}:thread:<id>
  KEYS[4] am:<pool>:{shard}:outbox          pending id -> record
  KEYS[5] am:<pool>:{shard}:outbox:due      pending id -> commit time, ms
  KEYS[6] am:<pool>:{shard}:reads:<id>      the match's read state (deleted with the thread)
  KEYS[7] am:<pool>:{shard}:ended-thread:<id>  the thread kept for reports
  ARGV[1] caller id (must be one of the two users)
  ARGV[2] now, ISO-8601 (ended_at)
  ARGV[3] match id
  ARGV[4] now, ms
  ARGV[5] how long the ended match's hash is kept, seconds (its users are told it ended until then)
  ARGV[6] how long the thread is kept for reports, seconds; 0: deleted at once (an account leaving)

  Returns {1, pending record} when ended; {0} when the match is unknown, already ended, or not the caller's.

  Slot: one (hash of the match's shard tag, which is its pair's)
]]
--- @include "includes/outbox"

local match = redis.call('HMGET', KEYS[1], 'user_a', 'user_b', 'ended_at')
local caller = ARGV[1]
if not match[1] or match[3] or (match[1] ~= caller and match[2] ~= caller) then return {0} end

redis.call('HSET', KEYS[1], 'ended_at', ARGV[2])
redis.call('HDEL', KEYS[1], 'last_message')
redis.call('EXPIRE', KEYS[1], ARGV[5])
redis.call('HSET', KEYS[2], 'match', 'ended:' .. ARGV[3])
if tonumber(ARGV[6]) > 0 and redis.call('EXISTS', KEYS[3]) == 1 then
  redis.call('RENAME', KEYS[3], KEYS[7])
  redis.call('EXPIRE', KEYS[7], ARGV[6])
  redis.call('UNLINK', KEYS[6])
else
  redis.call('UNLINK', KEYS[3], KEYS[6])
end

local users, match_id = {tonumber(match[1]), tonumber(match[2])}, tonumber(ARGV[3])
local pending = write_outbox(KEYS[4], KEYS[5], 'e' .. ARGV[3], {
  {type = 'match.unlisted', match_id = match_id, users = users},
  {type = 'match.ended', match_id = match_id, users = users, ended_at = ARGV[2]},
}, ARGV[4])
return {1, pending}
