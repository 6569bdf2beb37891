--[[
  Picks, from one slice of a ranking's scratch, the feeds its account (the candidate) has to enter, move
  in, or leave: owners whose feed was ranked (they have a floor) and either has room (floor 0) or a lowest
  score the candidate beats, plus every ranked owner it shares nothing with any more (score 0). Everyone
  else is left out, so spreading costs one look-up per sharer here instead of a script step per feed.
  A floor can be stale-high after a swipe freed a slot (the candidate then shows in that owner's unranked
  rest until the feed is ranked again); it is never stale-low.

  KEYS[1] disc:<pool>:scratch:<id>          sorted set: owner id -> the candidate's score for that owner
  KEYS[2] disc:<pool>:floors                sorted set: owner id -> floor of the owner's feed
  ARGV[1] candidate id
  ARGV[2] first rank of the slice
  ARGV[3] slice length (at most a few thousand)

  Returns {owner_1, score_1, owner_2, score_2, ...}.
]]
local first = tonumber(ARGV[2])
local rows = redis.call('ZRANGE', KEYS[1], first, first + tonumber(ARGV[3]) - 1, 'WITHSCORES')
local out = {}
if #rows == 0 then return out end
local owners = {'ZMSCORE', KEYS[2]}
for i = 1, #rows, 2 do owners[#owners + 1] = rows[i] end
local found = redis.call(unpack(owners))
for i = 1, #rows, 2 do
  local owner, score, floor = rows[i], tonumber(rows[i + 1]), found[(i + 1) / 2]
  if floor and owner ~= ARGV[1] and (score == 0 or score > tonumber(floor)) then
    out[#out + 1] = owner
    out[#out + 1] = rows[i + 1]
  end
end
return out
