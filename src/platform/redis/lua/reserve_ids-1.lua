#!lua
--[[
  Reserves the next ARGV[1] values of a counter of ids (src/platform/redis/id-block.ts, an account's id):
  a script rather than a plain INCRBY so that, with replicas asked for, it is acknowledged like the
  writes that use its ids (Scripts.runAcknowledged): a counter a failover took back would hand out ids
  of records the replicas hold.

  KEYS[1] the counter   string
  ARGV[1] how many values

  Returns the counter after the reservation: the last value reserved.

  Slot: one (hash of the counter's own tag)
]]
return redis.call('INCRBY', KEYS[1], ARGV[1])
