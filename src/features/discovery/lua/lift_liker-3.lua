#!lua
--[[
  A like (or super like) reaches its target's feed at once: the liker joins the target's likers (the
  LIKERS_KEPT newest are kept, for the rankings that follow) and, unless the target already swiped the
  liker, is lifted in the target's ranked feed by the liked_you bonus, once: added with the bonus when
  absent (a full feed drops its lowest entry for it, if that is lower), raised by it when present and not
  yet lifted. The next ranking of the target recomputes the whole score. Bounded: a few commands.

  KEYS[1] <pool>:<shard>:feed:<target>       sorted set: candidate id -> score
  KEYS[2] <pool>:<shard>:swipes:<target>     hash: whom the target swiped (read only)
  KEYS[3] <pool>:<shard>:likers:<target>     sorted set: liker id -> ms
  ARGV[1] liker id
  ARGV[2] the bonus (stored score units)
  ARGV[3] feed size
  ARGV[4] likers kept
  ARGV[5] now, ms

  Returns 1 when the feed changed, else 0.

  Slot: one (hash of the target's shard tag)
]]
local feed, swipes, likers = KEYS[1], KEYS[2], KEYS[3]
local liker, bonus, size, kept = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
if redis.call('HEXISTS', swipes, liker) == 1 then return 0 end
local new = redis.call('ZADD', likers, 'NX', ARGV[5], liker) == 1
if redis.call('ZCARD', likers) > kept then redis.call('ZREMRANGEBYRANK', likers, 0, -kept - 1) end
if not new then return 0 end
if redis.call('ZSCORE', feed, liker) then
  redis.call('ZINCRBY', feed, bonus, liker)
  return 1
end
if redis.call('ZCARD', feed) >= size then
  local lowest = redis.call('ZRANGE', feed, 0, 0, 'WITHSCORES')
  if tonumber(lowest[2]) >= bonus then return 0 end
  redis.call('ZPOPMIN', feed)
end
redis.call('ZADD', feed, bonus, liker)
return 1
