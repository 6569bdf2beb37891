#!lua
--[[
  Places one account (the candidate) into the ranked feeds of owners of one shard with the score it has
  there, or takes it out of a feed where it shares no interest any more (score 0). The caller passes only
  owners whose feed was ranked (they have a floor in their index partition, read beforehand: a feed never
  ranked is left alone, its first ranking will include the candidate); a feed whose owner already swiped
  the candidate, or that a block either way keeps the candidate from, is left alone too. A full feed takes the candidate only when it beats the feed's lowest
  entry, which then leaves, so a feed never outgrows its size.

  Answers the new floor (lowest score when full, else 0) of each feed changed or found full, for the
  caller to record in the owners' index partitions (derived data: a later ranking or spread rewrites it).

  KEYS[4i-3] .. KEYS[4i]                    <pool>:<shard>:feed:<owner i>, <pool>:<shard>:swipes:<owner i>,
                                            <pool>:<shard>:likers:<owner i>, <pool>:<shard>:hidden:<owner i>,
                                            i = 1..n, every owner of the same shard
  ARGV[1] candidate id
  ARGV[2] feed size
  ARGV[3] the liked-you bonus, added here when the candidate is among owner i's likers (the scores leave
          it out, so a like made while the scores were worked out still counts)
  ARGV[2+2i], ARGV[3+2i]                    owner i's id and the candidate's integer score for owner i

  Returns {feeds changed, owner_1, floor_1, owner_2, floor_2, ...} (the floors to record).

  Slot: one (hash of the owners' shard tag)
]]
local candidate, size, bonus = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local changed, out = 0, {0}

local function floor_of(feed, owner)
  local floor = '0'
  if redis.call('ZCARD', feed) >= size then floor = redis.call('ZRANGE', feed, 0, 0, 'WITHSCORES')[2] end
  out[#out + 1] = owner
  out[#out + 1] = floor
end

for i = 1, #KEYS / 4 do
  local feed, swipes, likers, hidden = KEYS[4 * i - 3], KEYS[4 * i - 2], KEYS[4 * i - 1], KEYS[4 * i]
  local owner, score = ARGV[2 + 2 * i], tonumber(ARGV[3 + 2 * i])
  if score > 0 and redis.call('ZSCORE', likers, candidate) then score = score + bonus end
  if owner ~= candidate then
    if score <= 0 then
      if redis.call('ZREM', feed, candidate) == 1 then
        changed = changed + 1
        out[#out + 1] = owner
        out[#out + 1] = '0'
      end
    else
      local fits = redis.call('ZSCORE', feed, candidate) or redis.call('ZCARD', feed) < size
      local full = false
      if not fits then
        full = true
        fits = score > tonumber(redis.call('ZRANGE', feed, 0, 0, 'WITHSCORES')[2])
      end
      if fits and redis.call('HEXISTS', swipes, candidate) == 0 and redis.call('HEXISTS', hidden, candidate) == 0 then
        if full then redis.call('ZPOPMIN', feed) end
        redis.call('ZADD', feed, score, candidate)
        changed = changed + 1
        floor_of(feed, owner)
      elseif not fits then
        -- the floor said there was room or a lower entry: it was stale, so correct it
        floor_of(feed, owner)
      end
    end
  end
end
out[1] = changed
return out
