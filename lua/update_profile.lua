#!lua
--[[
  Applies a profile patch to one account and, in the same atomic step, writes a pending outbox record in
  the account's shard holding the follow-up that moves the account's discovery entries to the merged
  profile (lua/index_account.lua, in the account's index partition: another hash slot). The caller
  applies the follow-up right after; the outbox sweeper applies it if the caller could not.

  Only the given fields are written into the stored profile (a merge). The caller built the follow-up
  from the stored profile it read merged with the patch, so the script applies only while the stored
  profile is still the one read (its `version`, bumped by every write here); otherwise nothing is
  written and the caller reads again and retries. The follow-up carries the new version, and a
  partition never takes an older version's entries over a newer one's.

  KEYS[1] <pool>:<shard>:user:<id>          hash: the account (must exist)
  KEYS[2] <pool>:<shard>:outbox             hash: pending id -> record (JSON array of effects)
  KEYS[3] <pool>:<shard>:outbox:due         sorted set: pending id -> commit ms
  ARGV[1] the account's version read before ("0" when it has none yet)
  ARGV[2] pending id
  ARGV[3] now, ms
  ARGV[4] the record: a JSON array of effects ({"type":"account.indexed", ...} of version ARGV[1] + 1)
  ARGV[5..] the patched profile fields as field/value pairs (none: re-index the stored profile)

  Returns 1 when applied, 0 when the account changed meanwhile (read again and retry), -1 when the
  account does not exist.

  Slot: one (hash of the account's shard tag)
]]
if redis.call('EXISTS', KEYS[1]) == 0 then
  return -1
end
if (redis.call('HGET', KEYS[1], 'version') or '0') ~= ARGV[1] then
  return 0
end
if #ARGV > 4 then
  redis.call('HSET', KEYS[1], unpack(ARGV, 5))
end
redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('HSET', KEYS[2], ARGV[2], ARGV[4])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[2])
return 1
