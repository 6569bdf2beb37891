#!lua
--[[
  The blocker's side of a block, on the blocker's own keys: the blocked account joins the blocker's blocks
  (unless the cap is reached), is marked hidden from the blocker (the "1" of its field in the hidden hash,
  see src/platform/redis/keys.ts) and leaves the blocker's ranked feed. Blocking again changes nothing but
  repairs the mark and the feed (a block interrupted half way is completed by sending it again).

  KEYS[1] am:<pool>:{shard}:blocks:<id>   sorted set: blocked id -> when (ms)
  KEYS[2] am:<pool>:{shard}:hidden:<id>   hash: other id -> 1 | 2 | 3
  KEYS[3] am:<pool>:{shard}:feed:<id>     the blocked account is removed from it
  ARGV[1] the blocked account's id
  ARGV[2] now, ms
  ARGV[3] the most blocks an account may hold

  Returns {1, when} for a new block, {0, when} for one already there, {-1} when the cap is reached (nothing
  written).

  Slot: one (hash of the blocker's shard tag)
]]
--- @include "includes/hidden_mark"

local other = ARGV[1]
local since = redis.call('ZSCORE', KEYS[1], other)
local added = 0
if not since then
  if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return {-1} end
  since = ARGV[2]
  redis.call('ZADD', KEYS[1], since, other)
  added = 1
end
mark_hidden(KEYS[2], other, 1, true)
redis.call('ZREM', KEYS[3], other)
return {added, tonumber(since)}
