#!lua
--[[
  What discovery learns from swipes of accounts of one index partition, gathered per swiper for a short
  while after their answers (src/features/discovery/swipe-signals.ts): for each swiper, what its swipes
  (but those that only repeated an earlier request, a replayed Idempotency-Key) add to its taste
  (src/features/discovery/swipe-taste.ts: per gender, accounts seen and liked; count, sum and sum of
  squares of the liked ages) and when it last swiped (it is active); and whether a swipe took a target out
  of its feed, which then has room (its floor drops to 0, see lua/rank_feed-4.lua). A swiper whose account
  is gone by then (it left: its erasure clears what is kept here) is passed over, so that nothing of it is
  written back after its erasure. Each taste is read, added to and written back here, so that two calls
  at once both count. Bounded: per swiper a look-up, one field of 11 numbers and a ZADD, over at most the
  swipers it is given (the sender caps a call at 128).

  KEYS[1] <pool>:<partition>:disc:traits    hash: t:<id> the taste, a:<id> last active ms
  KEYS[2] <pool>:<partition>:disc:floors    sorted set: feed owner -> its floor (only lowered, never added)
  KEYS[3] <pool>:<partition>:accounts       hash: id -> the account (read only)
  ARGV: four per swiper:
    swiper id
    the time of its latest swipe to learn from, ms; '' when none (only replays)
    what its swipes add to its taste: eleven numbers joined by commas; '' when none
    1 when a swipe took a target out of its feed, else 0

  Returns the number of swipers whose taste was noted.

  Slot: one (hash of the swipers' index partition tag)
]]
local traits, floors, accounts = KEYS[1], KEYS[2], KEYS[3]
-- A taste as stored: eleven numbers. Each is added to as a number; a stored taste of another shape is
-- read number by number, as far as it goes.
local TASTE = '^([^,]*),([^,]*),([^,]*),([^,]*),([^,]*),([^,]*),([^,]*),([^,]*),([^,]*),([^,]*),([^,]*)$'
local noted = 0
for at = 1, #ARGV - 3, 4 do
  local id, active, added = ARGV[at], ARGV[at + 1], ARGV[at + 2]
  if active ~= '' and redis.call('HEXISTS', accounts, id) == 1 then
    local field = 't:' .. id
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
    if added ~= '' then
      local i = 1
      for part in string.gmatch(added, '[^,]+') do
        local amount = tonumber(part) or 0
        if i <= 11 and amount ~= 0 then n[i] = (tonumber(n[i]) or 0) + amount end
        i = i + 1
      end
    end
    redis.call('HSET', traits, field, table.concat(n, ','), 'a:' .. id, active)
    noted = noted + 1
  end
  if ARGV[at + 3] == '1' then redis.call('ZADD', floors, 'XX', 0, id) end
end
return noted
