#!lua
--[[
  Creates an account if its e-mail is free: claims the e-mail, writes the account hash, adds the id to
  its pool's index and puts it into its pool's discovery indexes (interest, gender, city and state sets,
  the birthdate sorted set, the profile card), all or nothing.

  KEYS[1] email:<lower-cased e-mail>
  KEYS[2] user:<pool>:<id>
  KEYS[3] pool:<pool>:users
  KEYS[4] disc:<pool>:cards                 hash: id -> profile card (JSON)
  KEYS[5] disc:<pool>:birth                 sorted set: id -> birthdate as YYYYMMDD
  KEYS[6..]                                 the index sets the account belongs to
  ARGV[1] "<pool>:<id>", the e-mail key's value
  ARGV[2] id
  ARGV[3] creation time in ms (the index score)
  ARGV[4] the profile card
  ARGV[5] birthdate as YYYYMMDD
  ARGV[6..] the account's field/value pairs

  Returns 1 when created, 0 when the e-mail is taken.

  Slot: several (email:<e-mail>, user:<pool>:<id>, pool:<pool>:users, the indexes): not yet cluster-ready
]]
if redis.call('SET', KEYS[1], ARGV[1], 'NX') == false then
  return 0
end
local id = ARGV[2]
redis.call('HSET', KEYS[2], unpack(ARGV, 6))
redis.call('ZADD', KEYS[3], ARGV[3], id)
for i = 6, #KEYS do
  redis.call('SADD', KEYS[i], id)
end
redis.call('ZADD', KEYS[5], ARGV[5], id)
redis.call('HSET', KEYS[4], id, ARGV[4])
return 1
