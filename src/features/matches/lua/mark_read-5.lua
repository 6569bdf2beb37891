#!lua
--[[
  Marks a match's thread read by one of its users up to a message of the thread (includes/read_state.lua).
  Never moves back: a message at or before the user's mark changes nothing. When the mark moves forward,
  the other user is told (`message.read`), written in this same script as a pending record to the shard's
  outbox (pending id "r<match id>:<reader id>:<message id>": a mark reaches each message once).

  KEYS[1] am:<pool>:{shard}:match:<id>
  KEYS[2] am:<pool>:{shard}:thread:<id>      the thread (a stream)
  KEYS[3] am:<pool>:{shard}:reads:<id>       the match's read state
  KEYS[4] am:<pool>:{shard}:outbox           pending id -> record
  KEYS[5] am:<pool>:{shard}:outbox:due       pending id -> commit time, ms
  ARGV[1] reader id
  ARGV[2] message id
  ARGV[3] match id
  ARGV[4] now, ms
  ARGV[5] now, ISO-8601 (the event's time)

  Returns {'not_found'} when the match is unknown, ended, or not the reader's; {'no_message'} when the
  thread holds no message with that id; {'unchanged', mark, unread count} when the mark is there or
  further already; else {'moved', mark, unread count, pending record}.

  Slot: one (hash of the match's shard tag)
]]
--- @include "includes/outbox"
--- @include "includes/read_state"

local match = redis.call('HMGET', KEYS[1], 'user_a', 'user_b', 'ended_at')
local reader = ARGV[1]
if not match[1] or match[3] or (match[1] ~= reader and match[2] ~= reader) then return {'not_found'} end
local users, reads = {match[1], match[2]}, KEYS[3]

local message_id = tonumber(ARGV[2])
local entry = redis.call('XRANGE', KEYS[2], ARGV[2], ARGV[2], 'COUNT', 1)[1]
if not entry then return {'no_message'} end

local at = tonumber(redis.call('HGET', reads, 'at:' .. reader) or '0')
if at >= message_id then return {'unchanged', at, unread_count(reads, users, reader)} end

redis.call('HSET', reads, 'at:' .. reader, ARGV[2])
raise_seen(reads, reader, others_sent_at(entry[2], users, reader))
-- A thread older than its read state has none yet: the state lives as long as the thread.
if redis.call('PTTL', reads) < 0 then
  local left = redis.call('PTTL', KEYS[2])
  if left > 0 then redis.call('PEXPIRE', reads, left) end
end

local other = reader == users[1] and users[2] or users[1]
local pending = write_outbox(KEYS[4], KEYS[5], 'r' .. ARGV[3] .. ':' .. reader .. ':' .. ARGV[2], {
  {type = 'message.read', match_id = tonumber(ARGV[3]), recipient = tonumber(other), reader_id = tonumber(reader), message_id = message_id, read_at = ARGV[5]},
}, ARGV[4])
return {'moved', message_id, unread_count(reads, users, reader), pending}
