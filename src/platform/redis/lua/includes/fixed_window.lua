--[[
  Counts one hit of a fixed-window counter (a string with a TTL): the window starts at the first hit and
  lasts `window_ms`; hits past a limit count too but never lengthen it.
  Returns the hits counted in the window, this one included, and the ms until the window ends.
]]
local function count_in_window(key, window_ms)
  local hits = redis.call('INCR', key)
  if hits == 1 then redis.call('PEXPIRE', key, window_ms) end
  local left = redis.call('PTTL', key)
  if left < 0 then
    -- a counter left without a lifetime would refuse forever: give it one
    redis.call('PEXPIRE', key, window_ms)
    left = tonumber(window_ms)
  end
  return hits, left
end
