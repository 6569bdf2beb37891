#!lua
--[[
  Fixed-window rate limit for one account or one client address: counts one hit and says whether it is
  within the limit. The window starts at the first hit and lasts its length; hits past the limit count too
  but never lengthen it.
  lua/begin_swipe-6.lua counts swipes with the same counter (lua/includes/fixed_window.lua), inside the
  swipe's first step.

  KEYS[1] the counter (string with a TTL)
  ARGV[1] limit: hits allowed per window
  ARGV[2] window length in ms

  Returns {allowed (1|0), ms until the window ends}

  Slot: one (hash of rl:<name>:<pool>:<id>, or of rl:<name>:<address>)
]]
--- @include "includes/fixed_window"

local hits, left = count_in_window(KEYS[1], ARGV[2])
if hits > tonumber(ARGV[1]) then return {0, left} end
return {1, left}
