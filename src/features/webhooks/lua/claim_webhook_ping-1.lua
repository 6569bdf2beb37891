#!lua
--[[
  Claims a webhook's one place for a test ping in flight, for as long as the ping may take (the delivery
  timeout and a margin), unless another ping holds it.

  KEYS[1] the webhook's ping claim (string with a TTL: the id of the ping holding it)
  ARGV[1] the new ping's id
  ARGV[2] how long the claim lasts, in ms

  Returns 0 when claimed, else the ms until the ping holding it lets go at the latest.

  Slot: one (hash of the account's shard tag)
]]
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 0 end
return math.max(1, redis.call('PTTL', KEYS[1]))
