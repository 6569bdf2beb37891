#!lua
--[[
  The first step of an account's erasure (DELETE /api/v1/me), in its index partition, in one step: the
  account is marked leaving (what the rest of the erasure needs, its e-mail, kept until the erasure is
  done, so a crash mid-way is finished by the next sweep), and its profile is gone at once: its field of
  the accounts hash, its roster slot (0: no account), its index set entries, its ranked and floor marks
  and the interests it was spread with. From here on it cannot log in, its tokens are refused, and it is
  shown nowhere (every read skips an id with no account). Applies only while the stored account is the
  one read (else the caller reads again).

  KEYS[1] <pool>:<part>:accounts            hash: id -> the account
  KEYS[2] <pool>:<part>:roster:<bucket>     the account's roster bucket
  KEYS[3] <pool>:<part>:disc:ranked         sorted set: id -> ranked at
  KEYS[4] <pool>:<part>:disc:floors         sorted set: id -> feed floor
  KEYS[5] <pool>:<part>:disc:spread         hash: id -> interests spread with
  KEYS[6] <pool>:<part>:leaving             hash: id -> the erasure's marker (JSON)
  KEYS[7..] <pool>:<part>:disc:<index>:<v>  the index sets the account is in
  ARGV[1] id
  ARGV[2] the account as read
  ARGV[3] the marker (JSON)
  ARGV[4] the byte offset of its slot in the roster bucket

  Returns 1 when done, 0 when the account changed meanwhile (read again and retry), -1 when there is no
  such account.

  Slot: one (hash of the account's index partition tag)
]]
--- @include "includes/account_as_read"
local id = ARGV[1]
local found = account_as_read(KEYS[1], id, ARGV[2])
if found ~= 1 then return found end
redis.call('HSET', KEYS[6], id, ARGV[3])
redis.call('HDEL', KEYS[1], id)
redis.call('SETRANGE', KEYS[2], ARGV[4], struct.pack('>I4', 0))
redis.call('ZREM', KEYS[3], id)
redis.call('ZREM', KEYS[4], id)
redis.call('HDEL', KEYS[5], id)
for i = 7, #KEYS do
  redis.call('SREM', KEYS[i], id)
end
return 1
