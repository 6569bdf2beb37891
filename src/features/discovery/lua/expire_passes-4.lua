#!lua
--[[
  Before a feed read: the account's passes made before the cutoff expire (the candidates may return to the
  feed), and the swipes still standing and the accounts a block keeps from it (either way) are counted (for
  the feed's estimate of the candidates left).

  A pass is held in the swipe list as its time (ms), and the newest few are in the passes too (for the
  undo, lua/undo_pass-3.lua). Three bounded steps:
  1. Passes in the passes at or before the cutoff expire, the oldest first, at most ARGV[2] of them (the
     rest at the next reads). A pass replaced by a like meanwhile only leaves the passes (a like never
     expires).
  2. Once none of them is left there: passes stored before the swipe list held their times (every pass in
     the passes, a bare 'pass' in the swipe list) are folded in, the oldest beyond the newest ARGV[6] first,
     at most ARGV[2] of them: each gives its time to the swipe list and leaves the passes.
  3. The swipe list is swept for passes past the cutoff, an HSCAN page (about ARGV[2] fields) a call, and
     a sweep at most once every ARGV[5] ms: KEYS[3] holds the sweep's cursor meanwhile, and "@<ms>" (the
     time the next sweep may start) between sweeps. So a pass leaves at most about a sweep's length plus
     ARGV[5] after it expires. A bare 'pass' met on the way is timed: with its time in the passes, or with
     ARGV[3] (a day before the read, older than any undo window, so it does not become undoable) when it
     has none (a pass stored before passes had a time), so that it expires PASS_EXPIRY_DAYS after that.

  KEYS[1] <pool>:<shard>:swipes:<id>        hash: target id -> kind, or a pass's time (ms)
  KEYS[2] <pool>:<shard>:passes:<id>        sorted set: the newest passes, target id -> time of the pass (ms)
  KEYS[3] <pool>:<shard>:passes-timed:<id>  string: the sweep's cursor, or "@<ms>" between sweeps ("done"
                                            from earlier versions counts as "@0")
  KEYS[4] <pool>:<shard>:hidden:<id>        hash: the accounts a block keeps from it, other id -> 1 | 2 | 3
  ARGV[1] the cutoff, ms: passes at or before it expire
  ARGV[2] the most passes one step expires or folds (and the sweep's COUNT)
  ARGV[3] the time given to a pass stored without one, ms
  ARGV[4] now, ms
  ARGV[5] the shortest time between two sweeps' starts, ms
  ARGV[6] how many of the newest passes the passes keep

  Returns {passes expired, swipes standing (the swipe list's size), accounts hidden (the hidden hash's size)}.

  Slot: one (hash of the account's shard tag)
]]
--- @include "includes/pass_time"

local swipes, passes, sweep = KEYS[1], KEYS[2], KEYS[3]
local cutoff, step, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[4])
local expired = 0

local old = redis.call('ZRANGE', passes, '-inf', ARGV[1], 'BYSCORE', 'LIMIT', 0, step)
for _, target in ipairs(old) do
  local value = redis.call('HGET', swipes, target)
  if value == 'pass' or tonumber(value) then
    redis.call('HDEL', swipes, target)
    expired = expired + 1
  end
end
if #old > 0 then redis.call('ZREM', passes, unpack(old)) end

if #old < step then
  local extra = redis.call('ZCARD', passes) - tonumber(ARGV[6])
  if extra > 0 then
    local folded = redis.call('ZRANGE', passes, 0, math.min(extra, step) - 1, 'WITHSCORES')
    local members = {}
    for i = 1, #folded, 2 do
      time_bare_pass(swipes, folded[i], folded[i + 1])
      members[#members + 1] = folded[i]
    end
    redis.call('ZREM', passes, unpack(members))
  end
end

local state = redis.call('GET', sweep)
local cursor, start = '0', 0
if state and string.sub(state, 1, 1) == '@' then
  start = tonumber(string.sub(state, 2)) or 0
elseif state and state ~= 'done' then
  cursor = state
end
if now >= start then
  local page = redis.call('HSCAN', swipes, cursor, 'COUNT', step)
  local fields = page[2]
  for i = 1, #fields, 2 do
    local target, value = fields[i], fields[i + 1]
    local at = tonumber(value)
    if value == 'pass' then
      at = tonumber(redis.call('ZSCORE', passes, target) or ARGV[3])
      if at > cutoff then redis.call('HSET', swipes, target, string.format('%d', at)) end
    end
    if at and at <= cutoff then
      redis.call('HDEL', swipes, target)
      redis.call('ZREM', passes, target)
      expired = expired + 1
    end
  end
  if page[1] == '0' then
    redis.call('SET', sweep, '@' .. string.format('%d', now + tonumber(ARGV[5])))
  else
    redis.call('SET', sweep, page[1])
  end
end
return {expired, redis.call('HLEN', swipes), redis.call('HLEN', KEYS[4])}
