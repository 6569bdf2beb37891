#!lua
--[[
  Writes a new account and, in the same atomic step, a pending outbox record in the account's shard
  holding the follow-up that puts the account into its pool's discovery indexes (lua/index_account.lua,
  in the account's index partition: another hash slot). The caller reserved the e-mail before (its own
  slot) and applies the follow-up right after; the outbox sweeper applies it if the caller could not.

  KEYS[1] <pool>:<shard>:user:<id>          hash: the account
  KEYS[2] <pool>:<shard>:outbox             hash: pending id -> record (JSON array of effects)
  KEYS[3] <pool>:<shard>:outbox:due         sorted set: pending id -> commit ms
  ARGV[1] pending id
  ARGV[2] now, ms
  ARGV[3] the record: a JSON array of effects ({"type":"account.indexed", ...})
  ARGV[4..] the account's field/value pairs

  Returns 1 when created, 0 when an account with this id already exists (nothing written).

  Slot: one (hash of the account's shard tag)
]]
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
return 1
