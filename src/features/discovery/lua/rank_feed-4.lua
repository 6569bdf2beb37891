#!lua
--[[
  Stores a ranking the caller worked out (src/features/discovery/feed-candidates-repository.ts gathers and scores a bounded set
  of candidates, in bounded calls): replaces one account's ranked feed with the first ARGV[2] entries of
  a list ordered best first (score, then id, descending) that are neither the account itself, nor swiped
  by it, nor hidden from it by a block either way (checked here, so a swipe or block made while the
  ranking was worked out is honoured). Answers the feed's
  floor (its lowest score when full, else 0). Bounded: it looks at no more of the list than it is given
  (the caller passes the feed size plus a few spares).

  The liked-you lift is applied here, from the account's likers (KEYS[3]) as they are now: the caller's
  scores leave it out, and a listed candidate among the likers gets ARGV[3] more; a liker whose like
  came while the ranking was worked out (lifted into the old feed by lua/lift_liker-3.lua, but not in the
  list) keeps its entry. So a like is never lost to a ranking that read the likers just before it.
  Bounded: the old feed holds at most the feed size (plus its lifted likers).

  The caller then records, in the account's index partition (another hash slot), that the feed is ranked
  and its floor (src/features/discovery/feed-repository.ts). Those two entries are derived data, so no outbox record is
  needed: when a crash loses them, the account counts as never ranked and is ranked again (a worker
  starting queues every feed never ranked; a read ranks it first), which writes them anew.

  KEYS[1] <pool>:<shard>:feed:<id>          sorted set: candidate id -> score (replaced)
  KEYS[2] <pool>:<shard>:swipes:<id>        hash: fields are the ids the account swiped (read only)
  KEYS[3] <pool>:<shard>:likers:<id>        sorted set: who liked the account (read only)
  KEYS[4] <pool>:<shard>:hidden:<id>        hash: fields are the ids a block keeps from the account (read only)
  ARGV[1] id
  ARGV[2] feed size
  ARGV[3] the liked-you bonus (stored score units)
  ARGV[4..] candidate_1, score_1, candidate_2, score_2, ... best first (without the bonus)

  Returns {how many entries the feed now holds, its floor}.

  Slot: one (hash of the account's shard tag)
]]
local feed, swipes, likers, hidden = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local id, size, bonus = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])

local picked, listed = {}, {}
for i = 4, #ARGV - 1, 2 do
  local member = ARGV[i]
  if member ~= id and redis.call('HEXISTS', swipes, member) == 0 and redis.call('HEXISTS', hidden, member) == 0 then
    local score = tonumber(ARGV[i + 1])
    if redis.call('ZSCORE', likers, member) then score = score + bonus end
    picked[#picked + 1] = score
    picked[#picked + 1] = member
    listed[member] = true
    if #picked >= size * 2 then break end
  end
end
-- likers lifted into the old feed meanwhile, not in the list: kept with their score
local kept = {}
local old = redis.call('ZRANGE', feed, 0, -1, 'WITHSCORES')
for i = 1, #old, 2 do
  local member = old[i]
  if not listed[member] and tonumber(old[i + 1]) >= bonus and redis.call('ZSCORE', likers, member) and redis.call('HEXISTS', hidden, member) == 0 then
    kept[#kept + 1] = old[i + 1]
    kept[#kept + 1] = member
  end
end
redis.call('DEL', feed)
if #picked > 0 then redis.call('ZADD', feed, unpack(picked)) end
if #kept > 0 then redis.call('ZADD', feed, unpack(kept)) end
local count = redis.call('ZCARD', feed)
if count > size then
  redis.call('ZREMRANGEBYRANK', feed, 0, count - size - 1)
  count = size
end
local floor = '0'
if count >= size then floor = redis.call('ZRANGE', feed, 0, 0, 'WITHSCORES')[2] end
return {count, floor}
