#!lua
--[[
  Appends a message to a current match's thread, if the sender is one of its two users, and moves the
  match to the top of both users' lists and of the pool's list. The message id comes from the sequence
  here (the pool's own sequence), so ids in a thread increase in the order messages were appended. The
  message's `message.created` event is written to the outbox as a pending record in this same script
  (pending id "m<message id>"; see lua/flush_events.lua), so it survives any crash after the commit.

  KEYS[1] match:<pool>:<id>
  KEYS[2] messages:<pool>:<id>        message id -> message JSON
  KEYS[3] seq:<pool>:message
  KEYS[4] matches:<pool>:<user a>
  KEYS[5] matches:<pool>:<user b>
  KEYS[6] pool:<pool>:matches
  KEYS[7] outbox:<pool>               pending id -> record
  KEYS[8] outbox:<pool>:due           pending id -> commit time, ms
  KEYS[9] idem:...                    optional: the Idempotency-Key record
  ARGV[1] sender id
  ARGV[2] the message as a JSON object without its id: '{"match_id":…}'
  ARGV[3] now, ms (the activity score)
  ARGV[4] match id
  ARGV[5] Idempotency-Key record lifetime, seconds

  Returns {'not_found'} when the match is unknown, ended, or not the sender's; {'replay', message JSON}
  when the Idempotency-Key was seen (nothing written); else {'ok', message JSON, pending record}.

  Slot: several (match, thread, message sequence, match lists, outbox, idem record): not yet cluster-ready
]]
local idem = KEYS[9]
if idem then
  local done = redis.call('GET', idem)
  if done then return {'replay', done} end
end

local match = redis.call('HMGET', KEYS[1], 'user_a', 'user_b', 'ended_at')
local sender = ARGV[1]
if not match[1] or match[3] or (match[1] ~= sender and match[2] ~= sender) then return {'not_found'} end

local id = redis.call('INCR', KEYS[3])
local message = '{"id":' .. id .. ',' .. string.sub(ARGV[2], 2)
redis.call('ZADD', KEYS[2], id, message)
redis.call('HSET', KEYS[1], 'last_message', message)
-- GT: a process whose clock lags cannot move a match back in the lists.
redis.call('ZADD', KEYS[4], 'XX', 'GT', ARGV[3], ARGV[4])
redis.call('ZADD', KEYS[5], 'XX', 'GT', ARGV[3], ARGV[4])
redis.call('ZADD', KEYS[6], 'XX', 'GT', ARGV[3], ARGV[4])

local pending = '[{"type":"message.created","match_id":' .. ARGV[4] .. ',"users":[' .. match[1] .. ',' .. match[2] ..
  '],"message":' .. message .. '}]'
redis.call('HSET', KEYS[7], 'm' .. id, pending)
redis.call('ZADD', KEYS[8], ARGV[3], 'm' .. id)

if idem then redis.call('SET', idem, message, 'EX', ARGV[5]) end
return {'ok', message, pending}
