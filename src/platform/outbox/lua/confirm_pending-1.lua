#!lua flags=allow-oom
--[[
  Reads a pending record for the sweeper and writes it again, unchanged. The sweeper runs this with its
  acknowledgement (Scripts.runAcknowledged: WAIT), and a master's replicas take its writes in order, so a
  confirmed rewrite means the commit that wrote the record is on the replicas too. Without it, a sweeper
  could carry out the steps of a write that was answered 503 and that a failover then lost: its events
  appended, its step marks kept in other slots, and the same ids handed out again to other writes once
  the promoted replica's counters were behind.

  Flagged allow-oom: it grows nothing, and completing what Redis already took must not wait on memory.

  KEYS[1] am:<pool>:{shard}:outbox   pending id -> record
  ARGV[1] the pending id
  Returns the record, or false when it is gone (completed since the sweeper listed it).

  Slot: one (hash of the outbox's shard tag)
]]
local record = redis.call('HGET', KEYS[1], ARGV[1])
if record then redis.call('HSET', KEYS[1], ARGV[1], record) end
return record
