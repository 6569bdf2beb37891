#!lua
--[[
  Writes a new account together with every discovery entry it has, in its index partition: the account
  itself (its profile card and private part, src/store/profile-cards.ts), its creation time in the
  partition's user index, its birthdate, and its membership of its interest, gender, city and state sets.
  The caller reserved the e-mail before (its own slot); one step, so an account is never stored without
  its entries nor entries without their account.

  KEYS[1] <pool>:<part>:accounts            hash: id -> the account
  KEYS[2] <pool>:<part>:users               sorted set: id -> creation ms
  KEYS[3] <pool>:<part>:disc:birth          sorted set: id -> birthdate as YYYYMMDD
  KEYS[4..] <pool>:<part>:disc:<index>:<v>  the index sets the account is in
  ARGV[1] id
  ARGV[2] the account as stored
  ARGV[3] creation ms
  ARGV[4] birthdate as YYYYMMDD

  Returns 1 when created, 0 when an account with this id already exists (nothing written).

  Slot: one (hash of the account's index partition tag)
]]
local id = ARGV[1]
if redis.call('HSETNX', KEYS[1], id, ARGV[2]) == 0 then
  return 0
end
redis.call('ZADD', KEYS[2], ARGV[3], id)
redis.call('ZADD', KEYS[3], ARGV[4], id)
for i = 4, #KEYS do
  redis.call('SADD', KEYS[i], id)
end
return 1
