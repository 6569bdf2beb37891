#!lua
--[[
  One step of the move to key layout 3: threads were sorted sets of message JSON, with each message's
  read-state mark ("m:<id>" → "<user_a's sent>:<user_b's sent>") in the match's read state, and are streams
  (src/features/matches/thread-entries.ts). Moves the entries given, oldest first, from the sorted set to a
  stream being built beside it, takes their marks out of the read state, and once the sorted set is empty
  renames the stream to the thread's name, with the sorted set's lifetime. A step stopped part way is taken
  up again by the next: each entry leaves the sorted set in the call that adds it to the stream.

  KEYS[1] the thread as a sorted set (messages:<id>, or ended-thread:<id>)
  KEYS[2] the stream being built (in the same slot)
  KEYS[3] the thread's name in layout 3 (thread:<id>, or ended-thread:<id>)
  KEYS[4] the match's read state
  ARGV[1] how many entries follow; then per entry: the sorted set's member, the message id, the stream
          entry id, and the entry's fields and values (ten)

  Returns 1 once the thread is moved whole, 0 while the sorted set holds more.

  Slot: one (hash of the match's shard tag)
]]
local old, building, final, reads = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local left = redis.call('PTTL', old)
local at = 2
for _ = 1, tonumber(ARGV[1]) do
  local member, message_id, entry_id = ARGV[at], ARGV[at + 1], ARGV[at + 2]
  redis.call('XADD', building, entry_id, unpack(ARGV, at + 3, at + 12))
  redis.call('ZREM', old, member)
  redis.call('HDEL', reads, 'm:' .. message_id)
  at = at + 13
end
if left > 0 then redis.call('PEXPIRE', building, left) end
if redis.call('EXISTS', old) == 1 then return 0 end
if redis.call('EXISTS', building) == 1 then redis.call('RENAME', building, final) end
return 1
