--[[
  The server's clock in ms (TIME answers seconds and microseconds).
]]
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
