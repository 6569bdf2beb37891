#!lua
--[[
  Suspends an account, in its index partition, in one step: records the suspension and takes the account
  out of every discovery entry it has (its index sets, and its roster slot set to 0, which every walk of
  the pool reads as "no account"), so browse and the feed's unranked rest stop showing it at once. The
  account itself is kept as it is. The caller read the stored account and worked out its sets from it, so
  the script applies only while the account is still the one read (else the caller reads again).

  KEYS[1] <pool>:<part>:accounts            hash: id -> the account
  KEYS[2] <pool>:<part>:suspended           hash: id -> the suspension (JSON: since, reason)
  KEYS[3] <pool>:<part>:roster:<bucket>     string of 4-byte slots: the account's roster bucket
  KEYS[4] <pool>:<part>:epochs              hash: id -> its credentials epoch (includes/next_epoch.lua)
  KEYS[5..] <pool>:<part>:disc:<index>:<v>  the index sets the account is in
  ARGV[1] id
  ARGV[2] the account as read
  ARGV[3] the suspension record (JSON)
  ARGV[4] the byte offset of its slot in the roster bucket

  Returns {status, epoch}: status 1 when suspended, 2 when it was suspended already (the first record is kept), 0 when the account
  changed meanwhile (read again and retry), -1 when the account does not exist; epoch the account's credentials epoch after the step (moved on
  by one when the standing changed, which ends every token issued before it; 0 for statuses 0 and -1).

  Slot: one (hash of the account's index partition tag)
]]
--- @include "includes/standing_change"
local id = ARGV[1]
local refused = standing_change_refused(KEYS[1], KEYS[2], KEYS[4], id, ARGV[2], true)
if refused then return refused end
for i = 5, #KEYS do
  redis.call('SREM', KEYS[i], id)
end
redis.call('SETRANGE', KEYS[3], ARGV[4], struct.pack('>I4', 0))
redis.call('HSET', KEYS[2], id, ARGV[3])
return {1, next_epoch(KEYS[4], id, '', 0)}
