#!lua
--[[
  Takes back a swipe lua/begin_swipe-6.lua applied to the swiper's keys in the call that counted it, when
  the target turned out to be absent or suspended (a swipe on nobody writes nothing but its count): the
  swipe list, the passes and the feed get back what the swipe replaced, as begin_swipe answered it. Only
  while the swipe list still holds what this swipe gave it (a kind, or a pass's time, which the passes hold too): a
  later swipe on the same target stands.

  KEYS[1] am:<pool>:{shard}:swipes:<from>    target id -> kind, or a pass's time (ms)
  KEYS[2] am:<pool>:{shard}:feed:<from>      target id -> score
  KEYS[3] am:<pool>:{shard}:passes:<from>    the newest passes: target id -> time of the pass (ms)
  ARGV[1] target id
  ARGV[2] the kind the swipe applied
  ARGV[3] the time it gave a pass, '' for another kind
  ARGV[4] what it replaced in the swipe list (a kind, or a pass's time), '' when none
  ARGV[5] the target's previous time in the passes, '' when none
  ARGV[6] the target's previous score in the feed, '' when none

  Returns 1 when taken back, 0 when a later swipe stands.

  Slot: one (hash of the swiper's shard tag)
]]
local target = ARGV[1]
-- A pass is held in the swipe list as its time.
local applied = ARGV[2]
if ARGV[3] ~= '' then applied = ARGV[3] end
if redis.call('HGET', KEYS[1], target) ~= applied then return 0 end
if ARGV[3] ~= '' and redis.call('ZSCORE', KEYS[3], target) ~= ARGV[3] then return 0 end
if ARGV[4] == '' then redis.call('HDEL', KEYS[1], target) else redis.call('HSET', KEYS[1], target, ARGV[4]) end
if ARGV[5] == '' then redis.call('ZREM', KEYS[3], target) else redis.call('ZADD', KEYS[3], ARGV[5], target) end
if ARGV[6] ~= '' then redis.call('ZADD', KEYS[2], 'NX', ARGV[6], target) end
return 1
