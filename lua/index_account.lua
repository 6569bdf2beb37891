#!lua flags=allow-oom
--[[
  Puts one account's entries into its index partition (the follow-up of lua/create_user.lua and
  lua/update_profile.lua): its creation time in the partition's user index, its birthdate, its profile
  card, and its membership of the interest, gender, city and state sets, leaving the sets of the card
  stored before. Idempotent and ordered by the account's version: the partition records the version its
  entries come from and takes a version only over an older one, so applying a follow-up twice, or an
  older one late, changes nothing.

  The caller derives the sets to leave from the card it read (city and state are normalised with Unicode
  rules the caller owns); the script applies only while the stored card is still that one.

  KEYS[1] <pool>:<part>:disc:versions       hash: id -> version of the entries held
  KEYS[2] <pool>:<part>:users               sorted set: id -> creation ms
  KEYS[3] <pool>:<part>:disc:cards          hash: id -> profile card (JSON)
  KEYS[4] <pool>:<part>:disc:birth          sorted set: id -> birthdate as YYYYMMDD
  KEYS[5..]                                 first the ARGV[6] index sets the account leaves, then the
                                            index sets it is in at this version
  ARGV[1] id
  ARGV[2] the account's version these entries come from
  ARGV[3] creation ms
  ARGV[4] the card
  ARGV[5] birthdate as YYYYMMDD
  ARGV[6] how many of the KEYS are sets to leave
  ARGV[7] the card read before ("" when none)

  Returns 1 when applied, 0 when the partition already holds this version or a newer one, -1 when the
  stored card changed meanwhile (read again and retry).

  Flagged allow-oom: it completes an account write Redis already took (the account is stored), so a full
  Redis leaves no account out of discovery; one call writes a card and a few set members.

  Slot: one (hash of the account's index partition tag)
]]
local id, version = ARGV[1], tonumber(ARGV[2])
local held = redis.call('HGET', KEYS[1], id)
if held and tonumber(held) >= version then
  return 0
end
if (redis.call('HGET', KEYS[3], id) or '') ~= ARGV[7] then
  return -1
end
local leaving = tonumber(ARGV[6])
for i = 5, 4 + leaving do
  redis.call('SREM', KEYS[i], id)
end
for i = 5 + leaving, #KEYS do
  redis.call('SADD', KEYS[i], id)
end
redis.call('ZADD', KEYS[2], ARGV[3], id)
redis.call('ZADD', KEYS[4], ARGV[5], id)
redis.call('HSET', KEYS[3], id, ARGV[4])
redis.call('HSET', KEYS[1], id, ARGV[2])
return 1
