#!lua
--[[
  Lets go of a webhook's ping claim once its ping is done, if that ping still holds it (a claim that lapsed
  may have been taken by the next ping since).

  KEYS[1] the webhook's ping claim (string with a TTL: the id of the ping holding it)
  ARGV[1] the finished ping's id

  Returns 1 when released, 0 when the claim was not that ping's.

  Slot: one (hash of the account's shard tag)
]]
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
