#!lua
--[[
  A swipe's steps on the swiper's own keys. It counts the swipe against the swiper's swipe limit (a fixed
  window, lua/includes/fixed_window.lua) and, for a swipe sent with an Idempotency-Key, claims the key for
  this target and kind (the claim lua/claim_idempotency_key-1.lua keeps for messages, here in the same
  call): a key held by another target or kind refuses the swipe, and nothing else is written. Applying the
  swipe: the target joins the swiper's swipe list (which keeps it out of the swiper's feed from now on) and
  leaves the swiper's feed; a pass is held there as its time (so that it can expire), and is one of the
  swiper's newest passes (so that the last one can be undone); any other kind takes the target out of them.
  The passes keep the newest ARGV[9] only: when one more makes them ARGV[9] + 1, the oldest leaves them
  (its time is in the swipe list). More than that means passes stored before the swipe list held their
  times, which the account's feed reads fold into it (lua/expire_passes-4.lua). A swipe answered with an error may have been
  applied here only, which changes nothing but the swiper's feed, and its retry applies it again.

  Three ways to call it (ARGV[5]):
  - 2, a swipe without an Idempotency-Key: counted and, unless refused (past the limit, or a block keeps the
    target from the swiper), applied at once, beside the read of its target; the reply also says what the
    swipe replaced, so that lua/take_back_swipe-3.lua can put it back if the target turns out to be absent
    or suspended (a swipe on nobody writes nothing but its count);
  - 0 then 1, a swipe with an Idempotency-Key: counted (and the key claimed) first; applied (ARGV[3] 0, no
    count) beside the pair's decision (lua/record_swipe-5.lua), once the target is known to exist, with the
    kind the key's first request recorded.

  A pass's time is strictly after the swiper's last pass (one ms on at least), so the highest time names
  the last pass even when two come within one ms.

  KEYS[1] am:<pool>:{shard}:rl:like:<from>   the swiper's swipe counter (string with a TTL)
  KEYS[2] am:<pool>:{shard}:swipes:<from>    target id -> kind, or a pass's time (ms)
  KEYS[3] am:<pool>:{shard}:feed:<from>      the target is removed from it
  KEYS[4] am:<pool>:{shard}:passes:<from>    the newest passes: target id -> time of the pass (ms)
  KEYS[5] am:<pool>:{shard}:idem-claim:<from>:like:<key>   the Idempotency-Key's claim (untouched when ARGV[7] is '')
  KEYS[6] am:<pool>:{shard}:hidden:<from>   the accounts a block keeps from the swiper, either way
  ARGV[1] target id
  ARGV[2] kind
  ARGV[3] swipes allowed per window (0: no count)
  ARGV[4] the window's length, ms
  ARGV[5] 0 to count it only, 1 to apply it only, 2 to count it and apply it unless refused
  ARGV[6] now, ms
  ARGV[7] the request's fingerprint ("<target>\n<kind>") to claim the key with; '' without a key
  ARGV[8] the claim's lifetime, seconds
  ARGV[9] how many of the newest passes the passes keep

  Returns {allowed (1|0), ms until the window ends (0 when not counted), 1 when the target was in the feed
  (the feed now has room) else 0, the fingerprint of the request holding the key when another does, else
  false, 1 when a block keeps the target from the swiper (the swipe is answered as one on nobody) else 0},
  and when ARGV[5] is 2 and the swipe was applied, four more: what it replaced in the swipe list, its
  previous time in the passes, its previous score in the feed (each false when there was none), and the
  time the pass was given (false for another kind). Nothing is written past the limit; only the count when
  the key is another request's or the target hidden.

  Slot: one (hash of the swiper's shard tag)
]]
--- @include "includes/fixed_window"
--- @include "includes/pass_time"

local limit = tonumber(ARGV[3])
local mode = ARGV[5]
local left = 0
local hits = 0
if limit > 0 then hits, left = count_in_window(KEYS[1], ARGV[4]) end
local held = false
if ARGV[7] ~= '' then
  held = redis.call('GET', KEYS[5])
  if held and held ~= ARGV[7] then return {1, left, 0, held, 0} end
end
if hits > limit then return {0, left, 0, false, 0} end
if mode ~= '1' and redis.call('HEXISTS', KEYS[6], ARGV[1]) == 1 then return {1, left, 0, false, 1} end
if ARGV[7] ~= '' and not held then redis.call('SET', KEYS[5], ARGV[7], 'EX', ARGV[8]) end
if mode == '0' then return {1, left, 0, false, 0} end
local target, kind = ARGV[1], ARGV[2]
-- What the swipe replaces: for a take-back (only when counted and applied in one call), and so that a
-- member absent from the passes or the feed costs no removal.
local was_kind = false
if mode == '2' then was_kind = redis.call('HGET', KEYS[2], target) end
local was_passed = redis.call('ZSCORE', KEYS[4], target)
local was_in_feed = redis.call('ZSCORE', KEYS[3], target)
local passed_at = false
if kind == 'pass' then
  local at = tonumber(ARGV[6])
  local last = redis.call('ZRANGE', KEYS[4], -1, -1, 'WITHSCORES')
  if last[2] and tonumber(last[2]) >= at then at = tonumber(last[2]) + 1 end
  passed_at = string.format('%d', at)
  redis.call('HSET', KEYS[2], target, passed_at)
  redis.call('ZADD', KEYS[4], at, target)
  if redis.call('ZCARD', KEYS[4]) == tonumber(ARGV[9]) + 1 then
    local oldest = redis.call('ZPOPMIN', KEYS[4])
    time_bare_pass(KEYS[2], oldest[1], oldest[2])
  end
else
  redis.call('HSET', KEYS[2], target, kind)
  if was_passed then redis.call('ZREM', KEYS[4], target) end
end
local left_feed = 0
if was_in_feed then left_feed = redis.call('ZREM', KEYS[3], target) end
if mode ~= '2' then return {1, left, left_feed, false} end
return {1, left, left_feed, false, 0, was_kind, was_passed, was_in_feed, passed_at}
