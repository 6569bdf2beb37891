#!lua
--[[
  Adds a newly issued token to its account's token set, drops the tokens already expired, and takes the
  oldest out while the set holds more than the cap: the caller revokes those (a login beyond the cap
  logs the account's oldest session out). The set expires with its last token.

  KEYS[1] <pool>:{<shard>}:tokens:<id>    sorted set: token id (jti) -> its expiry (ms since the epoch)
  ARGV[1] the new token's jti
  ARGV[2] its expiry (ms)
  ARGV[3] now (ms)
  ARGV[4] the cap (tokens per account)

  Returns the tokens taken out over the cap, flat: jti_1, expiry_1 (ms), jti_2, ...

  Slot: one (hash of the account's shard tag)
]]
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[4])
local evicted = {}
if over > 0 then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, over, 'WITHSCORES')
  for i = 1, #oldest, 2 do
    if #evicted < 2 * over and oldest[i] ~= ARGV[1] then
      evicted[#evicted + 1] = oldest[i]
      evicted[#evicted + 1] = oldest[i + 1]
      redis.call('ZREM', KEYS[1], oldest[i])
    end
  end
end
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], last[2])
return evicted
