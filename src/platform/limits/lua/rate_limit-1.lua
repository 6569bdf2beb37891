#!lua
--[[
  Sliding-window rate limit: counts one hit and says whether it is within the limit.
  Every hit counts, allowed or not, so hammering a closed limit keeps it closed.

  KEYS[1] the window log (sorted set of hit times in ms)
  ARGV[1] limit: hits allowed within the window
  ARGV[2] window length in ms
  ARGV[3] a unique member for this hit

  Returns {allowed (1|0), hits in the window including this one, ms until the oldest hit leaves the window}

  Slot: one (hash of rl:<name>:<subject>)
]]
--- @include "includes/now_ms"

local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now = now_ms()

redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
redis.call('ZADD', key, now, now .. ':' .. ARGV[3])
-- Keep the log bounded even under a flood: older hits beyond twice the limit add nothing.
redis.call('ZREMRANGEBYRANK', key, 0, -(limit * 2) - 1)
redis.call('PEXPIRE', key, window)
local hits = redis.call('ZCARD', key)

local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
local wait = window - (now - tonumber(oldest[2]))
if hits > limit then
  -- the wait is until enough hits leave the window that the next one fits
  local nth = redis.call('ZRANGE', key, hits - limit, hits - limit, 'WITHSCORES')
  wait = window - (now - tonumber(nth[2]))
  return {0, hits, wait}
end
return {1, hits, wait}
