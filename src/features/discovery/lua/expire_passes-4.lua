#!lua
--[[
  Before a feed read: the account's passes made before the cutoff expire (the candidates may return to the
  feed), and the swipes still standing and the accounts a block keeps from it (either way) are counted (for
  the feed's estimate of the candidates left).
  Bounded: at most ARGV[2] passes expire per call, the oldest first; the rest go at the next reads. A pass
  replaced by a like meanwhile is only dropped from the passes (a like never expires).

  Passes stored before passes had a time (a bare 'pass' in the swipe list, absent from the passes) are
  timed first, a step of the swipe list per call (HSCAN, about ARGV[2] fields), from the account's first
  feed read on: each gets the time ARGV[3] (a day before the read: older than any undo window, so none
  becomes undoable) and expires PASS_EXPIRY_DAYS after it. KEYS[3] holds the scan's cursor meanwhile and "done" after.

  KEYS[1] <pool>:<shard>:swipes:<id>        hash: target id -> kind
  KEYS[2] <pool>:<shard>:passes:<id>        sorted set: target id -> time of the pass (ms)
  KEYS[3] <pool>:<shard>:passes-timed:<id>  string: the timing scan's cursor, or "done"
  KEYS[4] <pool>:<shard>:hidden:<id>        hash: the accounts a block keeps from it, other id -> 1 | 2 | 3
  ARGV[1] the cutoff, ms: passes at or before it expire
  ARGV[2] the most passes one call expires (and the scan's COUNT)
  ARGV[3] the time given to a pass stored without one, ms

  Returns {passes expired, swipes standing (the swipe list's size), accounts hidden (the hidden hash's size)}.

  Slot: one (hash of the account's shard tag)
]]
local swipes, passes, timed = KEYS[1], KEYS[2], KEYS[3]
local step = tonumber(ARGV[2])

local cursor = redis.call('GET', timed)
if cursor ~= 'done' then
  local page = redis.call('HSCAN', swipes, cursor or '0', 'COUNT', step)
  local fields = page[2]
  for i = 1, #fields, 2 do
    if fields[i + 1] == 'pass' then redis.call('ZADD', passes, 'NX', ARGV[3], fields[i]) end
  end
  if page[1] == '0' then redis.call('SET', timed, 'done') else redis.call('SET', timed, page[1]) end
end

local old = redis.call('ZRANGE', passes, '-inf', ARGV[1], 'BYSCORE', 'LIMIT', 0, step)
local expired = 0
for _, target in ipairs(old) do
  if redis.call('HGET', swipes, target) == 'pass' then
    redis.call('HDEL', swipes, target)
    expired = expired + 1
  end
end
if #old > 0 then redis.call('ZREM', passes, unpack(old)) end
return {expired, redis.call('HLEN', swipes), redis.call('HLEN', KEYS[4])}
