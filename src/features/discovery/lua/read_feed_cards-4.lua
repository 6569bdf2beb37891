#!lua flags=no-writes
--[[
  What a feed page shows of the accounts of one index partition, read at one instant: each one's public
  card unless it is suspended (a suspended account is never shown), and its ranking traits (for the
  entry's score_breakdown); and, for the reader's own partition, when the reader's feed was last ranked.
  Bounded by the page: the caller passes at most the page's ids of this partition.

  KEYS[1] <pool>:<part>:accounts      hash: id -> the account (card, then secrets, parts split by U+001E)
  KEYS[2] <pool>:<part>:suspended     hash: id -> the suspension (JSON)
  KEYS[3] <pool>:<part>:disc:traits   hash: p:<id>, t:<id>, a:<id> -> profile traits, taste, last activity
  KEYS[4] <pool>:<part>:disc:ranked   sorted set: id -> when its feed was ranked (ms)
  ARGV[1] the id whose feed's ranking time to return, or ""
  ARGV[2...] the ids

  Returns {ranked_at or false, card_1, profile_1, taste_1, active_1, card_2, ...}: each card without its
  secrets (the account's first two parts), false when there is none or it is suspended (its traits then
  false too).

  Slot: one (hash of the partition's tag)
]]
local accounts, suspended, traits, ranked = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local out = {ARGV[1] ~= '' and redis.call('ZSCORE', ranked, ARGV[1]) or false}

for i = 2, #ARGV do
  local id = ARGV[i]
  local card = redis.call('HEXISTS', suspended, id) == 0 and redis.call('HGET', accounts, id)
  if card then
    local first = string.find(card, '\30', 1, true)
    local second = first and string.find(card, '\30', first + 1, true)
    if second then card = string.sub(card, 1, second - 1) end
    local known = redis.call('HMGET', traits, 'p:' .. id, 't:' .. id, 'a:' .. id)
    out[#out + 1] = card
    out[#out + 1] = known[1]
    out[#out + 1] = known[2]
    out[#out + 1] = known[3]
  else
    out[#out + 1] = false
    out[#out + 1] = false
    out[#out + 1] = false
    out[#out + 1] = false
  end
end
return out
