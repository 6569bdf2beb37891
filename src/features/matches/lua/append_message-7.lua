#!lua
--[[
  Appends a message to a current match's thread, if the sender is one of its two users. The message id
  comes from the shard's message counter (`count * shards + shard`), so ids in a thread increase in the
  order messages were appended. The thread is a stream, the one copy of each message: entry id
  `<message id>-<created at, ms>`, the fields the caller gives (sender, body, mentions:
  src/features/matches/thread-entries.ts) and the two users' sent counts at it (`a`, `z`). The match's last
  message is the thread's newest entry, events refer to the message, and an Idempotency-Key record keeps its id.
  The thread is bounded: by count (the oldest beyond ARGV[8] are dropped), by age (messages created before
  ARGV[10] ms are dropped, at most a few per call, oldest first) and as a whole (it expires when no
  message was added for ARGV[9] ms). The match's read state (includes/read_state.lua) counts the message;
  a dropped message counts as read for both users from then on (it cannot be read any more). The read
  state expires with the thread.
  What the message changes in other hash slots is written, in this same script, as a pending record to
  the shard's outbox (pending id "m<message id>"): the match moved to the top of both users' lists and the
  pool's, and the `message.created` event (by message id: the event is built from the thread).
  An Idempotency-Key names one request: its record is "<fingerprint>\n<message id>", and the same key
  with another fingerprint (another body) is refused without writing anything.

  KEYS[1] am:<pool>:{shard}:match:<id>
  KEYS[2] am:<pool>:{shard}:thread:<id>      the thread (a stream)
  KEYS[3] am:<pool>:{shard}:seq:message
  KEYS[4] am:<pool>:{shard}:outbox           pending id -> record
  KEYS[5] am:<pool>:{shard}:outbox:due       pending id -> commit time, ms
  KEYS[6] am:<pool>:{shard}:idem:...         the Idempotency-Key record (not touched when ARGV[4] is 0)
  KEYS[7] am:<pool>:{shard}:reads:<id>       the match's read state (includes/read_state.lua)
  ARGV[1] sender id
  ARGV[2] now, ms (the message's creation and the activity score)
  ARGV[3] match id
  ARGV[4] Idempotency-Key record lifetime, seconds; 0 when the request has no Idempotency-Key
  ARGV[5] the number of shards, ARGV[6] this shard
  ARGV[7] the request's fingerprint (a hash of the body; no line break)
  ARGV[8] the most messages a thread keeps
  ARGV[9] the longest a message is kept, ms
  ARGV[10] messages created before this time (ms) are older than ARGV[9]
  ARGV[11...] the entry's fields and values

  Returns {'not_found'} when the match is unknown, ended, or not the sender's; {'replay', entry id, fields}
  when the Idempotency-Key was seen with this fingerprint ({'replay', message JSON} for a record written
  before threads were streams; {'not_found'} if the thread no longer holds that message), {'key_reused'}
  when it was seen with another (nothing written either way); else {'ok', entry id, pending record}.

  Slot: one (hash of the match's shard tag)
]]
--- @include "includes/idempotency"
--- @include "includes/outbox"
--- @include "includes/read_state"

local thread, reads = KEYS[2], KEYS[7]

local done = idempotency_record(KEYS[6], ARGV[4])
if done then
  local cut = string.find(done, '\n', 1, true)
  if not cut then return {'replay', done} end -- a record written before fingerprints were kept
  if string.sub(done, 1, cut - 1) ~= ARGV[7] then return {'key_reused'} end
  local kept = string.sub(done, cut + 1)
  if string.sub(kept, 1, 1) == '{' then return {'replay', kept} end -- a record written before it kept the id alone
  local found = redis.call('XRANGE', thread, kept, kept, 'COUNT', 1)[1]
  if not found then return {'not_found'} end
  return {'replay', found[1], found[2]}
end

local match = redis.call('HMGET', KEYS[1], 'user_a', 'user_b', 'ended_at')
local sender = ARGV[1]
if not match[1] or match[3] or (match[1] ~= sender and match[2] ~= sender) then return {'not_found'} end

local users = {match[1], match[2]}
local id = redis.call('INCR', KEYS[3]) * tonumber(ARGV[5]) + tonumber(ARGV[6])
redis.call('HINCRBY', reads, 'sent:' .. sender, 1)
local sent = redis.call('HMGET', reads, 'sent:' .. users[1], 'sent:' .. users[2])
local entry_id = id .. '-' .. ARGV[2]
local fields = {}
for i = 11, #ARGV do fields[#fields + 1] = ARGV[i] end
for _, value in ipairs({'a', sent[1] or '0', 'z', sent[2] or '0'}) do fields[#fields + 1] = value end
redis.call('XADD', thread, entry_id, unpack(fields))

-- Drops the `n` oldest messages; what the newest of them counted is read by both users now.
local function drop_oldest(n)
  local dropped = redis.call('XRANGE', thread, '-', '+', 'COUNT', n)
  local newest = dropped[#dropped]
  if not newest then return end
  for _, user in ipairs(users) do raise_seen(reads, user, others_sent_at(newest[2], users, user)) end
  redis.call('XTRIM', thread, 'MAXLEN', redis.call('XLEN', thread) - #dropped)
end

-- Bounds: by count, then by age (a few of the oldest per call: each message added drops older ones
-- faster than they can pile up), and the whole thread once quiet for the longest age.
local most = tonumber(ARGV[8])
local size = redis.call('XLEN', thread)
if size > most then drop_oldest(size - most) end
local cutoff = tonumber(ARGV[10])
for _ = 1, 4 do
  local oldest = redis.call('XRANGE', thread, '-', '+', 'COUNT', 1)[1]
  if not oldest or tonumber(string.match(oldest[1], '%-(%d+)$')) >= cutoff then break end
  drop_oldest(1)
end
redis.call('PEXPIRE', thread, ARGV[9])
redis.call('PEXPIRE', reads, ARGV[9])

local match_id = tonumber(ARGV[3])
local pending = write_outbox(KEYS[4], KEYS[5], 'm' .. id, {
  {type = 'match.touched', match_id = match_id, users = {tonumber(users[1]), tonumber(users[2])}, at = tonumber(ARGV[2])},
  {type = 'message.created', match_id = match_id, users = {tonumber(users[1]), tonumber(users[2])}, message_id = id},
}, ARGV[2])

keep_idempotency_record(KEYS[6], ARGV[4], ARGV[7] .. '\n' .. id)
return {'ok', entry_id, pending}
