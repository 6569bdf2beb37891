#!lua
--[[
  Places one account (the candidate) into other accounts' ranked feeds with the score it has there, or
  takes it out of a feed where it shares no interest any more (score 0). A feed is left alone when its
  owner's feed was never ranked (that first ranking will include the candidate) or its owner already
  swiped the candidate. A full feed takes the candidate only when it beats the feed's lowest entry, which
  then leaves, so a feed never outgrows its size. Each changed feed's floor (its lowest score when full,
  else 0) is brought up to date.

  KEYS[1] disc:<pool>:floors                sorted set: ranked owners -> floor of their feed
  KEYS[2i], KEYS[2i+1]                      feed:<pool>:<owner i>, swipes:<pool>:<owner i>, i = 1..n
  ARGV[1] candidate id
  ARGV[2] feed size
  ARGV[1+2i], ARGV[2+2i]                    owner i's id and the candidate's integer score for owner i

  Returns the number of feeds changed.

  Slot: several (disc:<pool>:floors, each owner's feed and swipes): not yet cluster-ready
]]
local floors, candidate, size = KEYS[1], ARGV[1], tonumber(ARGV[2])
local changed = 0

local function refresh_floor(feed, owner)
  local floor = 0
  if redis.call('ZCARD', feed) >= size then floor = redis.call('ZRANGE', feed, 0, 0, 'WITHSCORES')[2] end
  redis.call('ZADD', floors, floor, owner)
end

for i = 1, (#KEYS - 1) / 2 do
  local feed, swipes = KEYS[2 * i], KEYS[2 * i + 1]
  local owner, score = ARGV[1 + 2 * i], tonumber(ARGV[2 + 2 * i])
  if owner ~= candidate and redis.call('ZSCORE', floors, owner) then
    if score <= 0 then
      if redis.call('ZREM', feed, candidate) == 1 then
        changed = changed + 1
        redis.call('ZADD', floors, 0, owner)
      end
    else
      local fits = redis.call('ZSCORE', feed, candidate) or redis.call('ZCARD', feed) < size
      local full = false
      if not fits then
        full = true
        fits = score > tonumber(redis.call('ZRANGE', feed, 0, 0, 'WITHSCORES')[2])
      end
      if fits and redis.call('HEXISTS', swipes, candidate) == 0 then
        if full then redis.call('ZPOPMIN', feed) end
        redis.call('ZADD', feed, score, candidate)
        changed = changed + 1
        refresh_floor(feed, owner)
      elseif not fits then
        -- the floor said there was room or a lower entry: it was stale, so correct it
        refresh_floor(feed, owner)
      end
    end
  end
end
return changed
