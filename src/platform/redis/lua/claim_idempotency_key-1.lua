#!lua
--[[
  Claims an Idempotency-Key for one request of one account and operation (a like, a message): the key's
  claim holds the request's fingerprint (its target and what makes the request itself), kept `lifetime`
  seconds from the first request. The first request with the key claims it; a request with the same
  fingerprint finds its own claim (a retry: its write then replays the first answer); a request with
  another fingerprint (another target, kind or body) finds another's and must do nothing.

  KEYS[1] am:<pool>:{shard}:idem-claim:<user id>:<operation>:<key>   string with a TTL, in the account's shard
  ARGV[1] the request's fingerprint
  ARGV[2] the claim's lifetime, seconds

  Returns false (nil) when the key is this request's (claimed now, or by the same request before), else the
  fingerprint of the request that holds it.

  Slot: one (hash of the account's shard tag)
]]
local held = redis.call('GET', KEYS[1])
if not held then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
  return false
end
if held == ARGV[1] then return false end
return held
