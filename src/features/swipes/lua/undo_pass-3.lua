#!lua
--[[
  Undoes the swiper's last pass, on the swiper's own keys: counted against the swiper's swipe limit (the
  counter lua/begin_swipe-6.lua counts with); within it, the pass on the target is taken out of the
  swiper's swipe list and passes, so the target is back in the swiper's feed at once, when it was made at
  most ARGV[3] ms ago and is the swiper's last pass standing (the highest time in the passes). A pass's time
  is in the passes while it is one of the newest, and in the swipe list (its value there) unless it was
  stored before the swipe list held passes' times (a bare 'pass', timed in the passes or not at all). Anything else is
  refused and nothing is written but the count. The pair's record of the pass (lua/record_swipe-5.lua) is
  left: only likes decide a match, so a pass there and no swipe are the same to it.

  KEYS[1] am:<pool>:{shard}:rl:like:<from>   the swiper's swipe counter (string with a TTL)
  KEYS[2] am:<pool>:{shard}:swipes:<from>    target id -> kind, or a pass's time (ms)
  KEYS[3] am:<pool>:{shard}:passes:<from>    the newest passes: target id -> time of the pass (ms)
  ARGV[1] target id
  ARGV[2] now, ms
  ARGV[3] the undo window, ms
  ARGV[4] swipes allowed per window
  ARGV[5] the rate window's length, ms

  Returns {status, ms until the rate window ends, detail}, status one of:
    'limited'   past the swipe limit (detail '')
    'none'      the swiper has no swipe on the target (detail '')
    'not_pass'  the swipe is not a pass (detail: its kind)
    'untimed'   a pass stored before passes had a time (detail '')
    'too_old'   the pass is older than the window (detail: its time, ms)
    'not_last'  a later pass stands (detail: the target of the last pass)
    'undone'    done (detail: the pass's time, ms)

  Slot: one (hash of the swiper's shard tag)
]]
--- @include "includes/fixed_window"

local swipes, passes = KEYS[2], KEYS[3]
local target, now, window = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])

local hits, left = count_in_window(KEYS[1], ARGV[5])
if hits > tonumber(ARGV[4]) then return {'limited', left, ''} end

local kind = redis.call('HGET', swipes, target)
if not kind then return {'none', left, ''} end
if kind == 'like' or kind == 'super_like' then return {'not_pass', left, kind} end
local at = redis.call('ZSCORE', passes, target)
if not at and tonumber(kind) then at = kind end
if not at then return {'untimed', left, ''} end
if now - tonumber(at) > window then return {'too_old', left, at} end
local last = redis.call('ZRANGE', passes, '+inf', '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, 1)[1]
if last ~= target then return {'not_last', left, last or ''} end

redis.call('HDEL', swipes, target)
redis.call('ZREM', passes, target)
return {'undone', left, at}
