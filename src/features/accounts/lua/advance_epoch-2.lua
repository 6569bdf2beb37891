#!lua
--[[
  Ends every token of an account issued so far (log out everywhere): its credentials epoch moves on by one
  (includes/next_epoch.lua), optionally keeping the caller's token.

  KEYS[1] <pool>:<part>:accounts   hash: id -> the account
  KEYS[2] <pool>:<part>:epochs     hash: id -> "<epoch>" or "<epoch> <kept jti>"
  ARGV[1] id
  ARGV[2] the token to keep (jti), or ''
  ARGV[3] the epoch that token was issued in

  Returns the new epoch, or -1 when the account does not exist.

  Slot: one (hash of the account's index partition tag)
]]
--- @include "includes/next_epoch"
local id = ARGV[1]
if redis.call('HEXISTS', KEYS[1], id) == 0 then
  return -1
end
return next_epoch(KEYS[2], id, ARGV[2], ARGV[3])
