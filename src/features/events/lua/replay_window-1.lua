#!lua flags=no-writes
--[[
  Where a bounded replay starts (src/features/events/sockets/replay-window.ts): whether more than ARGV[2] entries of the
  stream are newer than ARGV[1] and, if so, the ids either side of the window of the newest ARGV[2]. Only
  the ids leave Redis: the replay then reads the window a page at a time, so a public replay never brings
  its whole window into the server's memory at once.

  KEYS[1] the stream
  ARGV[1] since: an entry id; only entries strictly after it count
  ARGV[2] limit: how many of the newest entries a replay may send (at least 1)

  Returns {} when at most `limit` entries are newer than since; otherwise {the oldest id of the window,
  the id of the entry just before it}. Walks back at most limit + 1 entries, 100 at a time.

  Slot: one (hash of the stream's key)
]]
local key = KEYS[1]
local since = '(' .. ARGV[1]
local limit = tonumber(ARGV[2])
local seen = 0
local upper = '+'
local first
while true do
  local step = math.min(100, limit + 1 - seen)
  local batch = redis.call('XREVRANGE', key, upper, since, 'COUNT', step)
  for i = 1, #batch do
    seen = seen + 1
    if seen == limit then first = batch[i][1] end
    if seen == limit + 1 then return {first, batch[i][1]} end
  end
  if #batch < step then return {} end
  upper = '(' .. batch[#batch][1]
end
