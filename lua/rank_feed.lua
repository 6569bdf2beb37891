#!lua
--[[
  Ranks one account's feed over a bounded set of candidates, so that a ranking holds Redis for about the
  same short time whatever the size of the pool (a union of the whole interest sets would touch half the
  pool when the account holds the commonest interest). When asked, also names the feeds the account
  should enter or move in (the spread targets).

  Gathering: the account's interest sets are taken rarest first. A set is taken whole while it fits in
  what is left of the budget ARGV[5]; each commoner set adds a random sample (SRANDMEMBER) of an even
  share of what is then left, and never fewer than ARGV[6] members. So at most ARGV[5] candidates, plus
  ARGV[6] per sampled interest, are considered.
  Scoring is exact for every candidate gathered: the summed weights of all the account's interests it
  holds (its membership of each sampled set is checked with SMISMEMBER). So a rarer shared interest still
  weighs more, and more shared interests beat fewer, among the candidates considered.
  Trade-off: a sharer of common interests only that was not drawn is left out of this ranking (it still
  shows in the feed's newest-first rest, and the next ranking draws a new sample), and the account is not
  spread into its feed.

  The best ARGV[2] candidates (score, then id, descending) that are neither the account itself nor swiped
  by it become the feed (small enough to stay a compact listpack). The account is marked ranked, and its
  floor (the feed's lowest score when full, else 0) recorded. The spread targets are the candidates whose
  feed was ranked (they have a floor) and either has room (floor 0) or a lowest score the account beats
  (scores are symmetric: the account's score in a candidate's feed is the candidate's score here).
  Floors are kept exact by whatever changes a feed (a swipe that frees a slot resets its floor to 0, see
  lua/record_swipe.lua); lua/spread_into_feeds.lua checks each feed again anyway.

  KEYS[1] feed:<pool>:<id>                  sorted set: candidate id -> score (replaced)
  KEYS[2] swipes:<pool>:<id>                hash: fields are the ids the account swiped (read only)
  KEYS[3] disc:<pool>:ranked                sorted set: id -> ranked-at ms
  KEYS[4] disc:<pool>:floors                sorted set: id -> the feed's floor
  KEYS[5..] disc:<pool>:interest:<name>     the account's interest sets (read only)
  ARGV[1] id
  ARGV[2] feed size
  ARGV[3] now, ms
  ARGV[4] "1" to return the spread targets, "0" not to
  ARGV[5] candidate budget
  ARGV[6] the fewest members drawn from a sampled set
  ARGV[7..] one positive integer weight per interest key

  Returns {candidates scored (the account itself included when gathered), owner_1, score_1, owner_2, ...}
  (the spread targets; none unless ARGV[4] is "1").
]]
local feed, swipes, ranked, floors = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local id, size, spreading = ARGV[1], tonumber(ARGV[2]), ARGV[4] == '1'
local budget, min_sample = tonumber(ARGV[5]), tonumber(ARGV[6])
-- Lua's C stack caps the arguments of one redis.call; stay well under it.
local CHUNK = 3000

local sets = {}
for i = 5, #KEYS do
  sets[#sets + 1] = {key = KEYS[i], weight = tonumber(ARGV[i + 2]), size = redis.call('SCARD', KEYS[i])}
end
table.sort(sets, function(a, b) return a.size < b.size end)

local score, candidates = {}, {}
local function gather(members, weight)
  for _, member in ipairs(members) do
    local known = score[member]
    if known then
      score[member] = known + weight
    else
      score[member] = weight
      candidates[#candidates + 1] = member
    end
  end
end

-- Calls `command key` with the candidates as arguments, a chunk at a time; `each(candidate, reply)`.
local function per_candidate(command, key, each)
  for first = 1, #candidates, CHUNK do
    local call = {command, key}
    for i = first, math.min(first + CHUNK - 1, #candidates) do call[#call + 1] = candidates[i] end
    for i, reply in ipairs(redis.call(unpack(call))) do each(candidates[first + i - 1], reply) end
  end
end

local room, k = budget, 1
while k <= #sets and sets[k].size <= room do
  gather(redis.call('SMEMBERS', sets[k].key), sets[k].weight)
  room = budget - #candidates
  k = k + 1
end
for j = k, #sets do
  local share = math.max(math.floor(room / (#sets - j + 1)), min_sample)
  gather(redis.call('SRANDMEMBER', sets[j].key, share), 0)
  room = math.max(budget - #candidates, 0)
end
for j = k, #sets do
  local weight = sets[j].weight
  per_candidate('SMISMEMBER', sets[j].key, function(member, held)
    if held == 1 then score[member] = score[member] + weight end
  end)
end

-- The feed: best score first, then highest id (the order of ZRANGE ... REV), walking the candidates
-- grouped by score; only a group that does not fit whole is sorted.
local groups, distinct = {}, {}
for _, member in ipairs(candidates) do
  local s = score[member]
  if not groups[s] then
    groups[s] = {}
    distinct[#distinct + 1] = s
  end
  local group = groups[s]
  group[#group + 1] = member
end
table.sort(distinct)
local picked = {}
for d = #distinct, 1, -1 do
  local s, group = distinct[d], groups[distinct[d]]
  if #group > size - #picked / 2 then table.sort(group) end
  for i = #group, 1, -1 do
    local member = group[i]
    if member ~= id and redis.call('HEXISTS', swipes, member) == 0 then
      picked[#picked + 1] = s
      picked[#picked + 1] = member
      if #picked >= size * 2 then break end
    end
  end
  if #picked >= size * 2 then break end
end
redis.call('DEL', feed)
if #picked > 0 then redis.call('ZADD', feed, unpack(picked)) end
local floor = 0
if #picked >= size * 2 then floor = picked[#picked - 1] end
redis.call('ZADD', ranked, ARGV[3], id)
redis.call('ZADD', floors, floor, id)

local out = {#candidates}
if spreading then
  per_candidate('ZMSCORE', floors, function(owner, owner_floor)
    if owner_floor and owner ~= id and score[owner] > tonumber(owner_floor) then
      out[#out + 1] = owner
      out[#out + 1] = score[owner]
    end
  end)
end
return out
