#!lua
--[[
  Lifts an account's suspension, in its index partition, in one step: deletes the suspension and puts the
  account back into the discovery entries of its profile as stored now (its index sets and roster code),
  so browse and feeds show it again. The caller read the stored account and worked out its entries from
  it, so the script applies only while the account is still the one read (else the caller reads again).

  KEYS[1] <pool>:<part>:accounts            hash: id -> the account
  KEYS[2] <pool>:<part>:suspended           hash: id -> the suspension (JSON: since, reason)
  KEYS[3] <pool>:<part>:roster:<bucket>     string of 4-byte slots: the account's roster bucket
  KEYS[4] <pool>:<part>:epochs              hash: id -> its credentials epoch (includes/next_epoch.lua)
  KEYS[5..] <pool>:<part>:disc:<index>:<v>  the index sets of its profile
  ARGV[1] id
  ARGV[2] the account as read
  ARGV[3] its roster code
  ARGV[4] the byte offset of its slot in the roster bucket

  Returns {status, epoch}: status 1 when lifted, 2 when the account was not suspended, 0 when the account changed meanwhile (read
  again and retry), -1 when the account does not exist (a suspension left of it is deleted); epoch the account's credentials epoch after
  the step (moved on by one when the standing changed, which ends every token issued before it; 0 for
  statuses 0 and -1).

  Slot: one (hash of the account's index partition tag)
]]
--- @include "includes/standing_change"
local id = ARGV[1]
local refused = standing_change_refused(KEYS[1], KEYS[2], KEYS[4], id, ARGV[2], false)
if refused then
  if refused[1] == -1 then
    redis.call('HDEL', KEYS[2], id)
  end
  return refused
end
for i = 5, #KEYS do
  redis.call('SADD', KEYS[i], id)
end
redis.call('SETRANGE', KEYS[3], ARGV[4], struct.pack('>I4', tonumber(ARGV[3])))
redis.call('HDEL', KEYS[2], id)
return {1, next_epoch(KEYS[4], id, '', 0)}
