--[[
  A request's Idempotency-Key record: what the first request with the key did, kept `lifetime` seconds
  and read before anything is written. A lifetime of 0 says the request has no Idempotency-Key: then
  nothing is read or kept.
]]
local function idempotency_record(key, lifetime)
  if tonumber(lifetime) == 0 then return false end
  local found = redis.call('GET', key)
  -- A replay writes the record again, unchanged: a master's replicas take its writes in order, so the
  -- replay's acknowledgement (WAIT) covers the first request's write too, whichever process made it.
  if found then redis.call('SET', key, found, 'KEEPTTL') end
  return found
end

local function keep_idempotency_record(key, lifetime, record)
  if tonumber(lifetime) > 0 then redis.call('SET', key, record, 'EX', lifetime) end
end
