--[[
  The check every step on a stored account starts with: the caller read the account and worked out the
  step from it, so the step applies only while the stored account is still the one read (else the caller
  reads again and retries).

  account_as_read(key, id, as_read): -1 when the hash `key` holds no account `id`, 0 when the stored one is
  not `as_read` (it changed meanwhile), 1 when it is.
]]
local function account_as_read(key, id, as_read)
  local stored = redis.call('HGET', key, id)
  if not stored then
    return -1
  end
  if stored ~= as_read then
    return 0
  end
  return 1
end
