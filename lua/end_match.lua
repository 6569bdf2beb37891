#!lua
--[[
  Unmatches: marks the match ended, closes its thread (the messages are deleted), takes it out of both
  users' lists and the pool's list, and leaves a tombstone on the pair so that it never matches again.
  Both users keep their swipes on each other, which keeps each out of the other's feed.

  KEYS[1] match:<pool>:<id>
  KEYS[2] pair:<pool>:<lo>:<hi>
  KEYS[3] matches:<pool>:<user a>
  KEYS[4] matches:<pool>:<user b>
  KEYS[5] pool:<pool>:matches
  KEYS[6] messages:<pool>:<id>
  ARGV[1] caller id (must be one of the two users)
  ARGV[2] now, ISO-8601 (ended_at)
  ARGV[3] match id

  Returns 1 when ended; 0 when the match is unknown, already ended, or not the caller's.
]]
local match = redis.call('HMGET', KEYS[1], 'user_a', 'user_b', 'ended_at')
local caller = ARGV[1]
if not match[1] or match[3] or (match[1] ~= caller and match[2] ~= caller) then return 0 end

redis.call('HSET', KEYS[1], 'ended_at', ARGV[2])
redis.call('HDEL', KEYS[1], 'last_message')
redis.call('SET', KEYS[2], 'ended:' .. ARGV[3])
redis.call('ZREM', KEYS[3], ARGV[3])
redis.call('ZREM', KEYS[4], ARGV[3])
redis.call('ZREM', KEYS[5], ARGV[3])
redis.call('UNLINK', KEYS[6])
return 1
