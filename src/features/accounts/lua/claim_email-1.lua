#!lua
--[[
  Compare-and-set of one e-mail's entry in the e-mail index: replaces its value with ARGV[3] (or removes
  the entry when ARGV[3] is "") only while it still holds ARGV[2]. Used to take over a reservation whose
  account was never written (a crash between reserving and creating), to give back a reservation whose
  account could not be created, and to settle a reservation into the lasting entry once its account is
  written.

  KEYS[1] {shard}:emails:<bucket>           hash: lower-cased e-mail -> "<pool>:<id>[:<reserved at ms>]"
  ARGV[1] the e-mail
  ARGV[2] the value expected
  ARGV[3] the new value, or "" to remove the entry

  Returns 1 when replaced, 0 when the entry held something else.

  Slot: one (hash of the shard tag of the e-mail's bucket)
]]
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then
  return 0
end
if ARGV[3] == '' then
  redis.call('HDEL', KEYS[1], ARGV[1])
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
end
return 1
