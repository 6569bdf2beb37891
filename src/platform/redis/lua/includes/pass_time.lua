--[[
  A pass is held in its swiper's swipe list as its time (ms). One stored before the swipe list held passes'
  times is a bare 'pass' there, its time in the passes (or nowhere): this gives it `at` as its value, and
  leaves any other value (a kind, or a time already) as it is.
]]
local function time_bare_pass(swipes, target, at)
  if redis.call('HGET', swipes, target) == 'pass' then redis.call('HSET', swipes, target, string.format('%d', tonumber(at))) end
end
