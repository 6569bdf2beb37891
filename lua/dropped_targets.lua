#!lua flags=no-writes
--[[
  Picks, from one SSCAN page of an interest set the candidate no longer holds, the owners whose feed it
  has to leave or move in: ranked owners (they have a floor) it now shares nothing with (score 0), or
  whose floor its new score beats (the rule of the spread targets of lua/rank_feed.lua, whose bounded
  ranking does not gather the holders of a dropped interest). One page per call, so the work of a call
  stays bounded however common the interest. Runs per index partition: the partition's part of the
  dropped interest's set, its floors and its part of the current interest sets (an owner's entries all
  live in its partition), so the caller pages through every partition.

  KEYS[1] <pool>:<part>:disc:interest:<dropped>  set paged through (read only)
  KEYS[2] <pool>:<part>:disc:floors              sorted set: owner id -> floor of the owner's feed
  KEYS[3..] <pool>:<part>:disc:interest:<name>   the candidate's current interest sets (read only)
  ARGV[1] candidate id
  ARGV[2] SSCAN cursor ("0" to start)
  ARGV[3] page size (the SSCAN COUNT hint; at most a few thousand)
  ARGV[4..] one integer weight per current interest key

  Returns {next_cursor, owner_1, score_1, owner_2, ...}; next_cursor is "0" once the set is done.

  Slot: one (hash of the index partition tag)
]]
local page = redis.call('SSCAN', KEYS[1], ARGV[2], 'COUNT', ARGV[3])
local owners, out = page[2], {page[1]}
if #owners == 0 then return out end

local scores = {}
for i = 1, #owners do scores[i] = 0 end
for k = 3, #KEYS do
  local weight = tonumber(ARGV[k + 1])
  for i, held in ipairs(redis.call('SMISMEMBER', KEYS[k], unpack(owners))) do
    if held == 1 then scores[i] = scores[i] + weight end
  end
end

local floors = redis.call('ZMSCORE', KEYS[2], unpack(owners))
for i, owner in ipairs(owners) do
  local floor, score = floors[i], scores[i]
  if floor and owner ~= ARGV[1] and (score == 0 or score > tonumber(floor)) then
    out[#out + 1] = owner
    out[#out + 1] = score
  end
end
return out
