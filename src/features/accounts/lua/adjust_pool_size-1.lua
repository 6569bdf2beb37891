#!lua
--[[
  Moves the pool's count of discoverable accounts by ARGV[1] after an account entered or left the
  discovery indexes, only while the count exists: an absent count is built from the partitions by its
  next read (src/features/accounts/pool-size-repository.ts), which counts this change already. INCRBY keeps
  the key's time to live, after which it is built again.

  KEYS[1] am:<pool>:{pool-size}:discoverable   string: the count
  ARGV[1] the change (+1 or -1)

  Returns the count after the change, or nil when there is no count yet (nothing written).

  Slot: one (hash of the count's own tag)
]]
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
return redis.call('INCRBY', KEYS[1], ARGV[1])
