#!lua
--[[
  What discovery learns from swipes of accounts of one index partition, sent together after their answers:
  for each, unless it only repeats an earlier request (a replayed Idempotency-Key), the swipe is added to
  the swiper's taste (src/features/discovery/swipe-taste.ts: per gender, accounts seen and liked; count,
  sum and sum of squares of the liked ages) and the swiper is marked active; and a swipe that took its
  target out of the swiper's feed drops the feed's floor to 0 (the feed has room: see lua/rank_feed-4.lua).
  A swiper whose account is gone by then (it left: its erasure clears what is kept here) is passed over,
  so that nothing of it is written back after its erasure. Each taste is read, added to and written back
  here, so that two swipes at once both count. Bounded: per swipe a look-up, one field of 11 numbers and a
  ZADD, over at most the swipes it is given (the sender caps a call at 128).

  KEYS[1] <pool>:<partition>:disc:traits    hash: t:<id> the taste, a:<id> last active ms
  KEYS[2] <pool>:<partition>:disc:floors    sorted set: feed owner -> its floor (only lowered, never added)
  KEYS[3] <pool>:<partition>:accounts       hash: id -> the account (read only)
  ARGV[1] now, ms
  then six per swipe, from ARGV[2]:
    swiper id
    1 to learn from the swipe (taste and activity), 0 not to (a replay)
    the target's gender (index into GENDERS, 0..3)
    the target's age, years
    1 for a like or super like, 0 for a pass
    1 when the target left the swiper's feed, else 0

  Returns the number of swipes noted.

  Slot: one (hash of the swipers' index partition tag)
]]
local traits, floors, accounts, now = KEYS[1], KEYS[2], KEYS[3], ARGV[1]
-- A taste as stored: eleven numbers. Only the ones a swipe changes are read as numbers; the others are
-- written back as they were read (the text this script, or encodeTaste, wrote).
local TASTE = '^([^,]*),([^,]*),([^,]*),([^,]*),([^,]*),([^,]*),([^,]*),([^,]*),([^,]*),([^,]*),([^,]*)$'
local function add(n, i, amount)
  n[i] = (tonumber(n[i]) or 0) + amount
end
local noted = 0
for at = 2, #ARGV - 5, 6 do
  local id = ARGV[at]
  if ARGV[at + 1] == '1' and redis.call('HEXISTS', accounts, id) == 1 then
    local field = 't:' .. id
    local gender, age, liked = tonumber(ARGV[at + 2]), tonumber(ARGV[at + 3]), ARGV[at + 4] == '1'
    local stored = redis.call('HGET', traits, field)
    local n = stored and {string.match(stored, TASTE)} or {}
    if #n ~= 11 then
      n = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
      if stored then
        local i = 1
        for part in string.gmatch(stored, '[^,]+') do
          if i <= 11 then n[i] = tonumber(part) or 0 end
          i = i + 1
        end
      end
    end
    if gender >= 0 and gender <= 3 then
      add(n, gender + 1, 1)
      if liked then
        add(n, gender + 5, 1)
        add(n, 9, 1)
        add(n, 10, age)
        add(n, 11, age * age)
      end
    end
    redis.call('HSET', traits, field, table.concat(n, ','), 'a:' .. id, now)
    noted = noted + 1
  end
  if ARGV[at + 5] == '1' then redis.call('ZADD', floors, 'XX', 0, id) end
end
return noted
