#!lua
--[[
  Compare-and-set of an e-mail reservation: replaces the key's value with ARGV[2] (or deletes the key
  when ARGV[2] is "") only while it still holds ARGV[1]. Used to take over a reservation whose account
  was never written (a crash between reserving and creating), and to give back a reservation whose
  account could not be created.

  KEYS[1] email:<lower-cased e-mail>        string: "<pool>:<id>:<reserved at ms>"
  ARGV[1] the value expected
  ARGV[2] the new value, or "" to delete

  Returns 1 when replaced, 0 when the key held something else.

  Slot: one (hash of the e-mail key)
]]
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], ARGV[2])
end
return 1
