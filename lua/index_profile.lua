#!lua flags=allow-oom
--[[
  Moves one account's entries in its pool's discovery indexes (interest, gender, city and state sets and
  the birthdate sorted set) from what its old profile card held to what its profile holds now, and stores
  the new card. Optimistic: applied only if the stored card is still the one the caller read (two
  concurrent edits of one account cannot leave a stale index entry behind).

  KEYS[1] disc:<pool>:cards                 hash: id -> profile card (JSON)
  KEYS[2] disc:<pool>:birth                 sorted set: id -> birthdate as YYYYMMDD
  KEYS[3..]                                 first the ARGV[4] index sets the account leaves, then
                                            the index sets it is in now
  ARGV[1] id
  ARGV[2] the card read before ("" when the account was never indexed)
  ARGV[3] the new card
  ARGV[4] how many of the KEYS are sets to leave
  ARGV[5] birthdate as YYYYMMDD

  Returns 1 when applied, 0 when the stored card changed meanwhile (read it again and retry).

  Flagged allow-oom: it completes an account write Redis already took (create_user, a profile update), so
  the account never exists without its index entries; one call stores one account's card and set entries.
]]
local id = ARGV[1]
if (redis.call('HGET', KEYS[1], id) or '') ~= ARGV[2] then
  return 0
end
local leaving = tonumber(ARGV[4])
for i = 3, 2 + leaving do
  redis.call('SREM', KEYS[i], id)
end
for i = 3 + leaving, #KEYS do
  redis.call('SADD', KEYS[i], id)
end
redis.call('ZADD', KEYS[2], ARGV[5], id)
redis.call('HSET', KEYS[1], id, ARGV[3])
return 1
