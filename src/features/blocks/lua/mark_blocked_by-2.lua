#!lua
--[[
  The blocked account's side of a block or unblock, on its own keys: the blocker is marked hidden from it
  (the "2" of the blocker's field in its hidden hash, see src/platform/redis/keys.ts) and leaves its ranked
  feed, or, on an unblock, the mark loses that part (the field stays while this account blocks the other
  too). Idempotent either way.

  KEYS[1] am:<pool>:{shard}:hidden:<id>   hash: other id -> 1 | 2 | 3
  KEYS[2] am:<pool>:{shard}:feed:<id>     the blocker is removed from it on a block
  ARGV[1] the blocker's id
  ARGV[2] 1 to mark (a block), 0 to unmark (an unblock)

  Returns 1.

  Slot: one (hash of the blocked account's shard tag)
]]
--- @include "includes/hidden_mark"

local on = ARGV[2] == '1'
mark_hidden(KEYS[1], ARGV[1], 2, on)
if on then redis.call('ZREM', KEYS[2], ARGV[1]) end
return 1
