#!lua
--[[
  Stores a ranking the caller worked out (src/features/discovery/feed-candidates-repository.ts gathers and scores a bounded set
  of candidates, in bounded calls): replaces one account's ranked feed with the first ARGV[2] entries of
  a list ordered best first (score, then id, descending) that are neither the account itself, nor swiped
  by it, nor hidden from it by a block either way (checked here, so a swipe or block made while the
  ranking was worked out is honoured). Answers the feed's
  floor (its lowest score when full, else 0). Bounded: it looks at no more of the list than it is given
  (the caller passes the feed size plus a few spares).

  The caller then records, in the account's index partition (another hash slot), that the feed is ranked
  and its floor (src/features/discovery/feed-repository.ts). Those two entries are derived data, so no outbox record is
  needed: when a crash loses them, the account counts as never ranked and is ranked again (a worker
  starting queues every feed never ranked; a read ranks it first), which writes them anew.

  KEYS[1] <pool>:<shard>:feed:<id>          sorted set: candidate id -> score (replaced)
  KEYS[2] <pool>:<shard>:swipes:<id>        hash: fields are the ids the account swiped (read only)
  KEYS[3] <pool>:<shard>:hidden:<id>        hash: fields are the ids a block keeps from the account (read only)
  ARGV[1] id
  ARGV[2] feed size
  ARGV[3..] candidate_1, score_1, candidate_2, score_2, ... best first

  Returns {how many entries the feed now holds, its floor}.

  Slot: one (hash of the account's shard tag)
]]
local feed, swipes, hidden = KEYS[1], KEYS[2], KEYS[3]
local id, size = ARGV[1], tonumber(ARGV[2])

local picked = {}
for i = 3, #ARGV - 1, 2 do
  local member = ARGV[i]
  if member ~= id and redis.call('HEXISTS', swipes, member) == 0 and redis.call('HEXISTS', hidden, member) == 0 then
    picked[#picked + 1] = ARGV[i + 1]
    picked[#picked + 1] = member
    if #picked >= size * 2 then break end
  end
end
redis.call('DEL', feed)
if #picked > 0 then redis.call('ZADD', feed, unpack(picked)) end
local floor = '0'
if #picked >= size * 2 then floor = picked[#picked - 1] end
return {#picked / 2, floor}
