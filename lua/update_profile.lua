#!lua
--[[
  Applies a profile patch to one account and moves the account's discovery entries (interest, gender,
  city and state sets, the birthdate sorted set, the profile card) to the merged profile, all or nothing,
  so the profile and every index derived from it change together.

  Only the given fields are written into the stored profile (a merge). The caller derives the index keys
  and the new card from the stored profile it read merged with the patch, because every key a script
  touches is passed in KEYS and city and state are normalised with Unicode rules the caller owns; the
  script applies them only while the stored profile is still the one read (its `version`, bumped by every
  write here) and the stored card is still the one the leaving sets were derived from. Otherwise nothing
  is written and the caller reads again and retries, so no interleaving of two patches can leave the
  profile, the card and the indexes disagreeing.

  KEYS[1] user:<pool>:<id>                  hash: the account (must exist)
  KEYS[2] disc:<pool>:cards                 hash: id -> profile card (JSON)
  KEYS[3] disc:<pool>:birth                 sorted set: id -> birthdate as YYYYMMDD
  KEYS[4..]                                 first the ARGV[4] index sets the account leaves, then
                                            the index sets it is in after the patch
  ARGV[1] id
  ARGV[2] the account's version read before ("0" when it has none yet)
  ARGV[3] the card read before ("" when the account was never indexed)
  ARGV[4] how many of the KEYS are sets to leave
  ARGV[5] birthdate after the patch, as YYYYMMDD
  ARGV[6] the card after the patch
  ARGV[7..] the patched profile fields as field/value pairs (none: re-index the stored profile)

  Returns 1 when applied, 0 when the account or its card changed meanwhile (read again and retry),
  -1 when the account does not exist.

  Slot: several (user:<pool>:<id>, disc:<pool>:cards, disc:<pool>:birth, index sets): not yet cluster-ready
]]
local id = ARGV[1]
if redis.call('EXISTS', KEYS[1]) == 0 then
  return -1
end
if (redis.call('HGET', KEYS[1], 'version') or '0') ~= ARGV[2] or (redis.call('HGET', KEYS[2], id) or '') ~= ARGV[3] then
  return 0
end
if #ARGV > 6 then
  redis.call('HSET', KEYS[1], unpack(ARGV, 7))
end
redis.call('HINCRBY', KEYS[1], 'version', 1)
local leaving = tonumber(ARGV[4])
for i = 4, 3 + leaving do
  redis.call('SREM', KEYS[i], id)
end
for i = 4 + leaving, #KEYS do
  redis.call('SADD', KEYS[i], id)
end
redis.call('ZADD', KEYS[3], ARGV[5], id)
redis.call('HSET', KEYS[2], id, ARGV[6])
return 1
