#!lua
--[[
  Takes a place for one more open WebSocket of an account, across every server process: each open socket
  holds a lease, renewed by its process while the socket lives and given back when it closes; the leases
  of a process that crashed lapse on their own. Expired leases are dropped first, then the new one is
  added while the account holds fewer than the cap.

  KEYS[1] <pool>:{<shard>}:sockets:<id>   sorted set: lease id ("<process>:<n>") -> lease end (ms)
  ARGV[1] the new lease's id
  ARGV[2] the cap (open sockets per account)
  ARGV[3] how long a lease lasts unrenewed (ms)

  Returns {1, leases held including the new one} when taken, {0, leases held} when the account is at its cap.

  Slot: one (hash of the account's shard tag)
]]
--- @include "includes/now_ms"

local now = now_ms()
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local held = redis.call('ZCARD', KEYS[1])
if held >= tonumber(ARGV[2]) then
  return {0, held}
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
return {1, held + 1}
