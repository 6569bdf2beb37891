#!lua flags=allow-oom
--[[
  Reads pending records for the sweeper and writes them again, unchanged. The sweeper runs this with its
  acknowledgement (Scripts.runAcknowledged: WAIT), and a master's replicas take its writes in order, so a
  confirmed rewrite means the commits that wrote the records are on the replicas too. Without it, a sweeper
  could carry out the steps of a write that was answered 503 and that a failover then lost: its events
  appended, its step marks kept in other slots, and the same ids handed out again to other writes once
  the promoted replica's counters were behind.

  Flagged allow-oom: it grows nothing, and completing what Redis already took must not wait on memory.

  KEYS[1] am:<pool>:{shard}:outbox   pending id -> record
  ARGV    the pending ids (a sweep's batch)
  Returns the records in the order asked, false for one that is gone (completed since the sweeper listed it).

  Slot: one (hash of the outbox's shard tag)
]]
local records = redis.call('HMGET', KEYS[1], unpack(ARGV))
for i, record in ipairs(records) do
  if record then redis.call('HSET', KEYS[1], ARGV[i], record) end
end
return records
