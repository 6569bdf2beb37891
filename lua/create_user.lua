#!lua
--[[
  Creates an account if its e-mail is free: claims the e-mail, writes the account hash and adds the id
  to its pool's index, all or nothing.

  KEYS[1] email:<lower-cased e-mail>
  KEYS[2] user:<pool>:<id>
  KEYS[3] pool:<pool>:users
  ARGV[1] "<pool>:<id>", the e-mail key's value
  ARGV[2] id
  ARGV[3] creation time in ms (the index score)
  ARGV[4..] the account's field/value pairs

  Returns 1 when created, 0 when the e-mail is taken.
]]
if redis.call('SET', KEYS[1], ARGV[1], 'NX') == false then
  return 0
end
redis.call('HSET', KEYS[2], unpack(ARGV, 4))
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[2])
return 1
