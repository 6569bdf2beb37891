#!lua
--[[
  Appends a message to a current match's thread, if the sender is one of its two users. The message id
  comes from the shard's message counter (`count * shards + shard`), so ids in a thread increase in the
  order messages were appended. The thread is the one copy of each message: the match's last message is
  the thread's newest entry, events refer to the message, and an Idempotency-Key record keeps its id.
  The thread is bounded: by count (the oldest beyond ARGV[9] are dropped), by age (messages older than
  ARGV[10] ms are dropped, at most a few per call, oldest first) and as a whole (it expires when no
  message was added for that long). The match's read state (includes/read_state.lua) counts the message
  and keeps its mark; a dropped message's mark goes with it, and it counts as read for both users from
  then on (it cannot be read any more). The read state expires with the thread.
  What the message changes in other hash slots is written, in this same script, as a pending record to
  the shard's outbox (pending id "m<message id>"): the match moved to the top of both users' lists and the
  pool's, and the `message.created` event (by message id: the event is built from the thread).
  An Idempotency-Key names one request: its record is "<fingerprint>\n<message id>", and the same key
  with another fingerprint (another body) is refused without writing anything.

  KEYS[1] am:<pool>:{shard}:match:<id>
  KEYS[2] am:<pool>:{shard}:messages:<id>    message id -> message JSON
  KEYS[3] am:<pool>:{shard}:seq:message
  KEYS[4] am:<pool>:{shard}:outbox           pending id -> record
  KEYS[5] am:<pool>:{shard}:outbox:due       pending id -> commit time, ms
  KEYS[6] am:<pool>:{shard}:idem:...         the Idempotency-Key record (not touched when ARGV[5] is 0)
  KEYS[7] am:<pool>:{shard}:reads:<id>       the match's read state (includes/read_state.lua)
  ARGV[1] sender id
  ARGV[2] the message as a JSON object without its id: '{"match_id":…}'
  ARGV[3] now, ms (the activity score)
  ARGV[4] match id
  ARGV[5] Idempotency-Key record lifetime, seconds; 0 when the request has no Idempotency-Key
  ARGV[6] the number of shards, ARGV[7] this shard
  ARGV[8] the request's fingerprint (a hash of the body; no line break)
  ARGV[9] the most messages a thread keeps
  ARGV[10] the longest a message is kept, ms
  ARGV[11] messages created before this are older than ARGV[10] (ISO-8601, compared as text)

  Returns {'not_found'} when the match is unknown, ended, or not the sender's; {'replay', message JSON}
  when the Idempotency-Key was seen with this fingerprint ({'not_found'} if the thread no longer holds
  that message), {'key_reused'} when it was seen with another (nothing written either way); else
  {'ok', message JSON, pending record}.

  Slot: one (hash of the match's shard tag)
]]
--- @include "includes/idempotency"
--- @include "includes/outbox"
--- @include "includes/read_state"

local done = idempotency_record(KEYS[6], ARGV[5])
if done then
  local cut = string.find(done, '\n', 1, true)
  if not cut then return {'replay', done} end -- a record written before fingerprints were kept
  if string.sub(done, 1, cut - 1) ~= ARGV[8] then return {'key_reused'} end
  local kept = string.sub(done, cut + 1)
  if string.sub(kept, 1, 1) == '{' then return {'replay', kept} end -- a record written before it kept the id alone
  local found = redis.call('ZRANGE', KEYS[2], kept, kept, 'BYSCORE')
  if not found[1] then return {'not_found'} end
  return {'replay', found[1]}
end

local match = redis.call('HMGET', KEYS[1], 'user_a', 'user_b', 'ended_at')
local sender = ARGV[1]
if not match[1] or match[3] or (match[1] ~= sender and match[2] ~= sender) then return {'not_found'} end

local thread, reads = KEYS[2], KEYS[7]
local users = {match[1], match[2]}
local id = redis.call('INCR', KEYS[3]) * tonumber(ARGV[6]) + tonumber(ARGV[7])
local message = '{"id":' .. id .. ',' .. string.sub(ARGV[2], 2)
redis.call('ZADD', thread, id, message)
redis.call('HINCRBY', reads, 'sent:' .. sender, 1)
local sent = redis.call('HMGET', reads, 'sent:' .. users[1], 'sent:' .. users[2])
redis.call('HSET', reads, 'm:' .. id, (sent[1] or '0') .. ':' .. (sent[2] or '0'))

-- Drops the `n` oldest messages with their marks; what the newest of them counted is read by both users now.
local function drop_oldest(n)
  local dropped = redis.call('ZRANGE', thread, 0, n - 1)
  local fields = {}
  for i, member in ipairs(dropped) do
    fields[#fields + 1] = 'm:' .. (string.match(member, '^{"id":(%d+)') or '')
    if #fields == 500 or i == #dropped then
      local newest = redis.call('HGET', reads, fields[#fields])
      for _, user in ipairs(users) do raise_seen(reads, user, others_sent_at(newest, users, user)) end
      redis.call('HDEL', reads, unpack(fields))
      fields = {}
    end
  end
  redis.call('ZREMRANGEBYRANK', thread, 0, n - 1)
end

-- Bounds: by count, then by age (a few of the oldest per call: each message added drops older ones
-- faster than they can pile up), and the whole thread once quiet for the longest age.
local most = tonumber(ARGV[9])
local size = redis.call('ZCARD', thread)
if size > most then drop_oldest(size - most) end
for _ = 1, 4 do
  local oldest = redis.call('ZRANGE', thread, 0, 0)[1]
  local created = oldest and string.match(oldest, '"created_at":"([^"]*)"')
  if not created or created >= ARGV[11] then break end
  drop_oldest(1)
end
redis.call('PEXPIRE', thread, ARGV[10])
redis.call('PEXPIRE', reads, ARGV[10])

local match_id = tonumber(ARGV[4])
local pending = write_outbox(KEYS[4], KEYS[5], 'm' .. id, {
  {type = 'match.touched', match_id = match_id, users = {tonumber(users[1]), tonumber(users[2])}, at = tonumber(ARGV[3])},
  {type = 'message.created', match_id = match_id, users = {tonumber(users[1]), tonumber(users[2])}, message_id = id},
}, ARGV[3])

keep_idempotency_record(KEYS[6], ARGV[5], ARGV[8] .. '\n' .. id)
return {'ok', message, pending}
