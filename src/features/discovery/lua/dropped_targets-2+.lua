#!lua flags=no-writes
--[[
  Picks, from one page of an interest set the candidate no longer holds, the owners whose feed it has to
  leave or move in: ranked owners (they have a floor) it now shares nothing with (score 0), or whose
  floor its new score beats (the rule of the spread targets of lua/rank_feed-4.lua, whose bounded ranking
  does not gather the holders of a dropped interest). One page per call, so the work of a call stays
  bounded however common the interest. Runs per index partition: the partition's part of the dropped
  interest's set, its floors and its part of the current interest sets (an owner's entries all live in
  its partition), so the caller pages through every partition.

  A page is an SSCAN page; but SSCAN answers a compact set (an intset, up to set-max-intset-entries
  members, see src/platform/redis-server/redis-settings.ts) whole, whatever its COUNT, so such a set is paged by value
  instead: its members above the last one taken, lowest first, ARGV[3] at a time (cursor "v<last>").
  Either way an owner in the set the whole time is picked once at least.

  KEYS[1] <pool>:<part>:disc:interest:<dropped>  set paged through (read only)
  KEYS[2] <pool>:<part>:disc:floors              sorted set: owner id -> floor of the owner's feed
  KEYS[3..] <pool>:<part>:disc:interest:<name>   the candidate's current interest sets (read only)
  ARGV[1] candidate id
  ARGV[2] cursor: "0" to start, then what the last call answered (an SSCAN cursor, or "v<last owner>")
  ARGV[3] page size (the SSCAN COUNT hint, and the most owners of a page read by value; at most a few thousand)
  ARGV[4..] one integer weight per current interest key

  Returns {next_cursor, owner_1, score_1, owner_2, ...}; next_cursor is "0" once the set is done.

  Slot: one (hash of the index partition tag)
]]
local cursor, count = ARGV[2], tonumber(ARGV[3])

-- The members above `after` (none: from the lowest), lowest first, `count` of them, and the cursor on.
local function by_value(members, after)
  local above = {}
  for _, member in ipairs(members) do
    local id = tonumber(member)
    if not after or id > after then above[#above + 1] = id end
  end
  table.sort(above)
  local taken = {}
  for i = 1, math.min(count, #above) do taken[i] = tostring(above[i]) end
  if #above > count then return taken, 'v' .. taken[#taken] end
  return taken, '0'
end

local owners, next_cursor
if string.sub(cursor, 1, 1) == 'v' then
  local page = redis.call('SSCAN', KEYS[1], '0', 'COUNT', count)
  if page[1] == '0' then
    owners, next_cursor = by_value(page[2], tonumber(string.sub(cursor, 2)))
  else
    -- no longer answered whole (it grew out of its compact form): page it by SSCAN from the start
    owners, next_cursor = page[2], page[1]
  end
else
  local page = redis.call('SSCAN', KEYS[1], cursor, 'COUNT', count)
  if cursor == '0' and page[1] == '0' and #page[2] > count then
    owners, next_cursor = by_value(page[2], nil)
  else
    owners, next_cursor = page[2], page[1]
  end
end
local out = {next_cursor}
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
