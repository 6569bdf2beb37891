#!lua
--[[
  The blocker's side of an unblock: the account leaves the blocker's blocks, and its hidden mark loses the
  blocker's part ("1"; the field stays while the other account blocks this one too).

  KEYS[1] am:<pool>:{shard}:blocks:<id>   sorted set: blocked id -> when (ms)
  KEYS[2] am:<pool>:{shard}:hidden:<id>   hash: other id -> 1 | 2 | 3
  ARGV[1] the unblocked account's id

  Returns 1 when the block was there, else 0 (nothing written).

  Slot: one (hash of the blocker's shard tag)
]]
--- @include "includes/hidden_mark"

if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then return 0 end
mark_hidden(KEYS[2], ARGV[1], 1, false)
return 1
