#!lua
--[[
  Stores a ranking the caller worked out (src/store/feed-candidates.ts gathers and scores a bounded set
  of candidates, in bounded calls): replaces one account's ranked feed with the first ARGV[2] entries of
  a list ordered best first (score, then id, descending) that are neither the account itself nor swiped
  by it (checked here, so a swipe made while the ranking was worked out is honoured). The account is
  marked ranked and its floor (the feed's lowest score when full, else 0) recorded. Floors are kept exact
  by whatever changes a feed (a swipe that frees a slot resets its floor to 0, see lua/record_swipe.lua);
  other accounts' rankings enter a feed whose floor they beat (lua/spread_into_feeds.lua). Bounded: it
  looks at no more of the list than it is given (the caller passes the feed size plus a few spares).

  KEYS[1] feed:<pool>:<id>                  sorted set: candidate id -> score (replaced)
  KEYS[2] swipes:<pool>:<id>                hash: fields are the ids the account swiped (read only)
  KEYS[3] disc:<pool>:ranked                sorted set: id -> ranked-at ms
  KEYS[4] disc:<pool>:floors                sorted set: id -> the feed's floor
  ARGV[1] id
  ARGV[2] feed size
  ARGV[3] now, ms
  ARGV[4..] candidate_1, score_1, candidate_2, score_2, ... best first

  Returns how many entries the feed now holds.

  Slot: several (feed and swipes of the account, disc:<pool>:ranked, disc:<pool>:floors): not yet cluster-ready
]]
local feed, swipes, ranked, floors = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local id, size = ARGV[1], tonumber(ARGV[2])

local picked = {}
for i = 4, #ARGV - 1, 2 do
  local member = ARGV[i]
  if member ~= id and redis.call('HEXISTS', swipes, member) == 0 then
    picked[#picked + 1] = ARGV[i + 1]
    picked[#picked + 1] = member
    if #picked >= size * 2 then break end
  end
end
redis.call('DEL', feed)
if #picked > 0 then redis.call('ZADD', feed, unpack(picked)) end
local floor = 0
if #picked >= size * 2 then floor = picked[#picked - 1] end
redis.call('ZADD', ranked, ARGV[3], id)
redis.call('ZADD', floors, floor, id)
return #picked / 2
