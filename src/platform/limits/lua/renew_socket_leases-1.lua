#!lua
--[[
  Renews the leases one process holds for an account's open WebSockets (see take_socket_lease-1.lua):
  only leases still there are renewed (a lapsed one is not brought back), and the set lasts as long as
  its newest lease.

  KEYS[1] <pool>:{<shard>}:sockets:<id>   sorted set: lease id -> lease end (ms)
  ARGV[1] how long a lease lasts unrenewed (ms)
  ARGV[2..] the lease ids to renew

  Returns how many were renewed.

  Slot: one (hash of the account's shard tag)
]]
--- @include "includes/now_ms"

local until_ms = now_ms() + tonumber(ARGV[1])
local renewed = 0
for i = 2, #ARGV do
  renewed = renewed + redis.call('ZADD', KEYS[1], 'XX', 'CH', until_ms, ARGV[i])
end
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]))
end
return renewed
