#!lua
--[[
  A swipe's steps on the swiper's own keys. Its first call counts the swipe against the swiper's swipe limit
  (a fixed window, lua/includes/fixed_window.lua) and, for a swipe sent with an Idempotency-Key, claims the
  key for this target and kind (the claim lua/claim_idempotency_key-1.lua keeps for messages, here in the same
  call): a key held by another target or kind refuses the swipe, and nothing else is written. Its second call,
  made beside the pair's decision (lua/record_swipe-5.lua) once the target is known to exist, applies the swipe
  (ARGV[3] 0, ARGV[5] 1): the target joins the swiper's swipe list (which keeps it out of the swiper's feed
  from now on) and leaves the swiper's feed; a pass is timed in the swiper's passes (so that it can expire,
  and the last one be undone), any other kind takes the target out of them. A swipe answered with an error
  may have been applied here only, which changes nothing but the swiper's feed, and its retry applies it
  again.

  A pass's time is strictly after the swiper's last pass (one ms on at least), so the highest time names
  the last pass even when two come within one ms.

  KEYS[1] am:<pool>:{shard}:rl:like:<from>   the swiper's swipe counter (string with a TTL)
  KEYS[2] am:<pool>:{shard}:swipes:<from>    target id -> kind
  KEYS[3] am:<pool>:{shard}:feed:<from>      the target is removed from it
  KEYS[4] am:<pool>:{shard}:passes:<from>    target id -> time of the pass (ms)
  KEYS[5] am:<pool>:{shard}:idem-claim:<from>:like:<key>   the Idempotency-Key's claim (untouched when ARGV[7] is '')
  KEYS[6] am:<pool>:{shard}:hidden:<from>   the accounts a block keeps from the swiper, either way
  ARGV[1] target id
  ARGV[2] kind
  ARGV[3] swipes allowed per window (0: no count)
  ARGV[4] the window's length, ms
  ARGV[5] 1 to apply the swipe, 0 to count it only
  ARGV[6] now, ms
  ARGV[7] the request's fingerprint ("<target>\n<kind>") to claim the key with; '' without a key
  ARGV[8] the claim's lifetime, seconds

  Returns {allowed (1|0), ms until the window ends (0 when not counted), 1 when the target was in the feed
  (the feed now has room) else 0, the fingerprint of the request holding the key when another does, else
  false, 1 when a block keeps the target from the swiper (the swipe is answered as one on nobody) else 0}.
  Nothing is written past the limit; only the count when the key is another request's or the target hidden.

  Slot: one (hash of the swiper's shard tag)
]]
--- @include "includes/fixed_window"

local limit = tonumber(ARGV[3])
local left = 0
local hits = 0
if limit > 0 then hits, left = count_in_window(KEYS[1], ARGV[4]) end
local held = false
if ARGV[7] ~= '' then
  held = redis.call('GET', KEYS[5])
  if held and held ~= ARGV[7] then return {1, left, 0, held, 0} end
end
if hits > limit then return {0, left, 0, false, 0} end
if ARGV[5] ~= '1' and redis.call('HEXISTS', KEYS[6], ARGV[1]) == 1 then return {1, left, 0, false, 1} end
if ARGV[7] ~= '' and not held then redis.call('SET', KEYS[5], ARGV[7], 'EX', ARGV[8]) end
if ARGV[5] ~= '1' then return {1, left, 0, false, 0} end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
if ARGV[2] == 'pass' then
  local at = tonumber(ARGV[6])
  local last = redis.call('ZRANGE', KEYS[4], -1, -1, 'WITHSCORES')
  if last[2] and tonumber(last[2]) >= at then at = tonumber(last[2]) + 1 end
  redis.call('ZADD', KEYS[4], at, ARGV[1])
else
  redis.call('ZREM', KEYS[4], ARGV[1])
end
return {1, left, redis.call('ZREM', KEYS[3], ARGV[1]), false}
