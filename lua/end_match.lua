#!lua
--[[
  Unmatches: marks the match ended, closes its thread (the messages are deleted), takes it out of both
  users' lists and the pool's list, and leaves a tombstone on the pair so that it never matches again.
  Both users keep their swipes on each other, which keeps each out of the other's feed.
  The thread's `message.created` events are removed from the streams they were appended to (the match's
  event list names them), so a deleted thread is not replayed either; the `match.ended` event is written
  to the outbox as a pending record (pending id "e<match id>"; see lua/flush_events.lua).

  KEYS[1] match:<pool>:<id>
  KEYS[2] pair:<pool>:<lo>:<hi>
  KEYS[3] matches:<pool>:<user a>
  KEYS[4] matches:<pool>:<user b>
  KEYS[5] pool:<pool>:matches
  KEYS[6] messages:<pool>:<id>
  KEYS[7] outbox:<pool>               pending id -> record
  KEYS[8] outbox:<pool>:due           pending id -> commit time, ms
  KEYS[9] match-events:<pool>:<id>    "<stream key> <entry id>" of each of the thread's events
  KEYS[10..] the streams those events can be in: events:<pool>:<user a>, events:<pool>:<user b> and,
          for agents, events:spectator:agent
  ARGV[1] caller id (must be one of the two users)
  ARGV[2] now, ISO-8601 (ended_at)
  ARGV[3] match id
  ARGV[4] now, ms

  Returns {1, pending record} when ended; {0} when the match is unknown, already ended, or not the caller's.

  Slot: several (match, pair, match lists, thread, outbox, match-events, streams): not yet cluster-ready
]]
local match = redis.call('HMGET', KEYS[1], 'user_a', 'user_b', 'ended_at')
local caller = ARGV[1]
if not match[1] or match[3] or (match[1] ~= caller and match[2] ~= caller) then return {0} end

redis.call('HSET', KEYS[1], 'ended_at', ARGV[2])
redis.call('HDEL', KEYS[1], 'last_message')
redis.call('SET', KEYS[2], 'ended:' .. ARGV[3])
redis.call('ZREM', KEYS[3], ARGV[3])
redis.call('ZREM', KEYS[4], ARGV[3])
redis.call('ZREM', KEYS[5], ARGV[3])
redis.call('UNLINK', KEYS[6])

local streams = {}
for i = 10, #KEYS do streams[KEYS[i]] = true end
for _, entry in ipairs(redis.call('LRANGE', KEYS[9], 0, -1)) do
  local space = string.find(entry, ' ', 1, true)
  local stream = space and string.sub(entry, 1, space - 1)
  if stream and streams[stream] then redis.call('XDEL', stream, string.sub(entry, space + 1)) end
end
redis.call('DEL', KEYS[9])

local pending = '[{"type":"match.ended","match_id":' .. ARGV[3] .. ',"users":[' .. match[1] .. ',' .. match[2] ..
  '],"ended_at":"' .. ARGV[2] .. '"}]'
redis.call('HSET', KEYS[7], 'e' .. ARGV[3], pending)
redis.call('ZADD', KEYS[8], ARGV[4], 'e' .. ARGV[3])
return {1, pending}
