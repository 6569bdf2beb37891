-- Sets (on) or clears one part of an account's hidden mark on `other` (src/platform/redis/keys.ts, hidden):
-- part 1 is "this account blocked it", part 2 "it blocked this account"; the field leaves with its last part.
local function mark_hidden(key, other, part, on)
  local current = tonumber(redis.call('HGET', key, other) or '0')
  local next
  if on then next = bit.bor(current, part) else next = bit.band(current, bit.bnot(part)) end
  if next == 0 then
    redis.call('HDEL', key, other)
  elseif next ~= current then
    redis.call('HSET', key, other, next)
  end
end
