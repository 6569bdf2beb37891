#!lua
--[[
  Adds one swipe to the swiper's taste (src/features/discovery/swipe-taste.ts: per gender, accounts seen
  and liked; count, sum and sum of squares of the liked ages) and marks the swiper active. Read, add and
  written back here so that two swipes at once both count. Bounded: one field of 11 numbers.

  KEYS[1] <pool>:<partition>:disc:traits    hash: t:<id> the taste, a:<id> last active ms
  ARGV[1] swiper id
  ARGV[2] the target's gender (index into GENDERS, 0..3)
  ARGV[3] the target's age, years
  ARGV[4] 1 for a like or super like, 0 for a pass
  ARGV[5] now, ms

  Returns 1.

  Slot: one (hash of the swiper's index partition tag)
]]
local traits, id = KEYS[1], ARGV[1]
local gender, age, liked = tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4] == '1'
local n = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
local stored = redis.call('HGET', traits, 't:' .. id)
if stored then
  local i = 1
  for part in string.gmatch(stored, '[^,]+') do
    if i <= 11 then n[i] = tonumber(part) or 0 end
    i = i + 1
  end
end
if gender >= 0 and gender <= 3 then
  n[gender + 1] = n[gender + 1] + 1
  if liked then
    n[gender + 5] = n[gender + 5] + 1
    n[9] = n[9] + 1
    n[10] = n[10] + age
    n[11] = n[11] + age * age
  end
end
redis.call('HSET', traits, 't:' .. id, table.concat(n, ','), 'a:' .. id, ARGV[5])
return 1
