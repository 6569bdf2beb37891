#!lua
--[[
  Stores an account with its new password hash and, in the same step, ends every token issued before
  (its credentials epoch moves on: includes/next_epoch.lua) but the caller's. A login that checked the old
  password read the old epoch first, so its token is refused too, however the two raced. Applies only
  while the stored account is the one read (else the caller reads again).

  KEYS[1] <pool>:<part>:accounts   hash: id -> the account
  KEYS[2] <pool>:<part>:epochs     hash: id -> "<epoch>" or "<epoch> <kept jti>"
  ARGV[1] id
  ARGV[2] the account as read
  ARGV[3] the account with its new password hash
  ARGV[4] the caller's token (jti), kept
  ARGV[5] the epoch that token was issued in

  Returns the new epoch, 0 when the account changed meanwhile, -1 when there is no such account.

  Slot: one (hash of the account's index partition tag)
]]
--- @include "includes/next_epoch"
--- @include "includes/account_as_read"
local id = ARGV[1]
local found = account_as_read(KEYS[1], id, ARGV[2])
if found ~= 1 then return found end
redis.call('HSET', KEYS[1], id, ARGV[3])
return next_epoch(KEYS[2], id, ARGV[4], ARGV[5])
