#!lua
--[[
  Replaces one account's stored profile with a patched one and moves its discovery entries along, in its
  index partition, in one step: leaves the index sets of the profile stored before and joins those of the
  new one, and rewrites its roster code (birthdate and gender). The caller read the stored account, merged the patch into it and
  worked out the sets to leave and join (city and state are normalised with Unicode rules the caller
  owns), so the script applies only while the stored account is still the one read; otherwise nothing is
  written and the caller reads again and retries. Concurrent patches of one account so never leave the
  indexes disagreeing with the profile. A suspended account is out of every entry (lua/suspend_account-4+.lua):
  only its account is written, and lifting the suspension files the profile stored then.

  KEYS[1] <pool>:<part>:accounts            hash: id -> the account
  KEYS[2] <pool>:<part>:suspended           hash: id -> the suspension, for a suspended account
  KEYS[3] <pool>:<part>:roster:<bucket>     string of 4-byte slots: the account's roster bucket
  KEYS[4..]                                 first the ARGV[5] index sets the account leaves, then the
                                            index sets it is in now
  ARGV[1] id
  ARGV[2] the account as read before
  ARGV[3] the account as it is to be stored
  ARGV[4] its roster code
  ARGV[5] how many of the KEYS from KEYS[4] are sets to leave
  ARGV[6] the byte offset of its slot in the roster bucket

  Returns 1 when applied, 0 when the account changed meanwhile (read again and retry), -1 when the
  account does not exist.

  Slot: one (hash of the account's index partition tag)
]]
--- @include "includes/account_as_read"
local id = ARGV[1]
local found = account_as_read(KEYS[1], id, ARGV[2])
if found ~= 1 then return found end
if redis.call('HEXISTS', KEYS[2], id) == 0 then
  local leaving = tonumber(ARGV[5])
  for i = 4, 3 + leaving do
    redis.call('SREM', KEYS[i], id)
  end
  for i = 4 + leaving, #KEYS do
    redis.call('SADD', KEYS[i], id)
  end
  redis.call('SETRANGE', KEYS[3], ARGV[6], struct.pack('>I4', tonumber(ARGV[4])))
end
redis.call('HSET', KEYS[1], id, ARGV[3])
return 1
