--[[
  An account's credentials epoch, as the epochs hash holds it: "<epoch>" or "<epoch> <kept jti>" (a missing
  field is epoch 0). Every change of the account's standing moves it on by one, so a token carries the epoch
  it was issued in and works only while that is still the account's epoch (or it is the one token kept).

  current_epoch(key, id): the epoch stored now.
  next_epoch(key, id, keep_jti, caller_epoch): stores the next epoch and answers it. `keep_jti` (or '')
  stays valid across the step, but only when it was issued in the current epoch (`caller_epoch`), so a
  step cannot bring back a token that an earlier one ended.
]]
local function current_epoch(key, id)
  local stored = redis.call('HGET', key, id)
  if not stored then
    return 0
  end
  return tonumber(string.match(stored, '^%d+'))
end

local function next_epoch(key, id, keep_jti, caller_epoch)
  local current = current_epoch(key, id)
  local epoch = current + 1
  if keep_jti ~= '' and tonumber(caller_epoch) == current then
    redis.call('HSET', key, id, epoch .. ' ' .. keep_jti)
  else
    redis.call('HSET', key, id, epoch)
  end
  return epoch
end
