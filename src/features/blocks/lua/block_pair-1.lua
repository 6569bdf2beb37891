#!lua
--[[
  Sets or clears one user's block on a pair's state (`block:<id>`, see src/platform/redis/keys.ts): while
  either user blocks the other, lua/record_swipe-5.lua (swipes feature) records no swipe of theirs on each
  other and makes no match. Answers the pair's match state, so that the caller ends a current match after
  the flag is set (no new match can be made from then on, so the one read here is the only one to end).

  KEYS[1] am:<pool>:{shard}:pair:<lo>:<hi>
  ARGV[1] the blocker's id
  ARGV[2] 1 to set, 0 to clear

  Returns the pair's `match` field ('' when none): a match id, or "ended:<id>".

  Slot: one (hash of the pair's shard tag)
]]
if ARGV[2] == '1' then
  redis.call('HSET', KEYS[1], 'block:' .. ARGV[1], '1')
else
  redis.call('HDEL', KEYS[1], 'block:' .. ARGV[1])
end
return redis.call('HGET', KEYS[1], 'match') or ''
