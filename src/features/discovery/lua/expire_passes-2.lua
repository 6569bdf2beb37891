#!lua
--[[
  Before a feed read: the account's passes made before the cutoff expire (the candidates may return to the
  feed), and the swipes still standing are counted (for the feed's estimate of the candidates left).
  Bounded: at most ARGV[2] passes expire per call, the oldest first; the rest go at the next reads. A pass
  replaced by a like meanwhile is only dropped from the passes (a like never expires).

  KEYS[1] <pool>:<shard>:swipes:<id>        hash: target id -> kind
  KEYS[2] <pool>:<shard>:passes:<id>        sorted set: target id -> time of the pass (ms)
  ARGV[1] the cutoff, ms: passes at or before it expire
  ARGV[2] the most passes one call expires

  Returns {passes expired, swipes standing (the swipe list's size)}.

  Slot: one (hash of the account's shard tag)
]]
local swipes, passes = KEYS[1], KEYS[2]
local old = redis.call('ZRANGE', passes, '-inf', ARGV[1], 'BYSCORE', 'LIMIT', 0, tonumber(ARGV[2]))
local expired = 0
for _, target in ipairs(old) do
  if redis.call('HGET', swipes, target) == 'pass' then
    redis.call('HDEL', swipes, target)
    expired = expired + 1
  end
end
if #old > 0 then redis.call('ZREM', passes, unpack(old)) end
return {expired, redis.call('HLEN', swipes)}
