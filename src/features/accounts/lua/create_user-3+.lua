#!lua
--[[
  Writes a new account together with every discovery entry it has, in its index partition: the account
  itself (its profile card and private part, src/features/accounts/profile-cards.ts), its roster code (birthdate and
  gender, src/features/discovery/roster-repository.ts), and its membership of its interest, city and state sets.
  The caller reserved the e-mail before (its own slot); one step, so an account is never stored without
  its entries nor entries without their account.

  KEYS[1] <pool>:<part>:accounts            hash: id -> the account
  KEYS[2] <pool>:<part>:roster:<bucket>     string of 4-byte slots: the account's roster bucket
  KEYS[3] <pool>:<part>:roster              sorted set: the buckets holding an account (number -> number)
  KEYS[4..] <pool>:<part>:disc:<index>:<v>  the index sets the account is in
  ARGV[1] id
  ARGV[2] the account as stored
  ARGV[3] its roster code
  ARGV[4] its roster bucket's number
  ARGV[5] the byte offset of its slot in the bucket

  Returns 1 when created, 0 when an account with this id already exists (nothing written).

  Slot: one (hash of the account's index partition tag)
]]
local id = ARGV[1]
if redis.call('HSETNX', KEYS[1], id, ARGV[2]) == 0 then
  return 0
end
redis.call('SETRANGE', KEYS[2], ARGV[5], struct.pack('>I4', tonumber(ARGV[3])))
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[4])
for i = 4, #KEYS do
  redis.call('SADD', KEYS[i], id)
end
return 1
