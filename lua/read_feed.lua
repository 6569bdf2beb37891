#!lua flags=no-writes
--[[
  The ranked part of one page of an account's feed: best first (score, then id, descending), never the
  account itself nor anybody it swiped, strictly after the cursor position. Bounded: the ranked part
  holds at most the feed size. The rest of the page (everyone else of the pool, newest first) lives in
  the index partitions and is gathered by the caller (src/store/feed-store.ts), which looks its
  candidates up in this account's feed and swipes with single-slot reads.

  KEYS[1] <pool>:<shard>:feed:<id>          sorted set: candidate id -> score
  KEYS[2] <pool>:<shard>:swipes:<id>        hash: fields are the ids the account swiped
  ARGV[1] id
  ARGV[2] how many entries to return (one more than the page, to tell whether more follow)
  ARGV[3] cursor part: "r" (ranked), "t" (the rest: no ranked entry is returned), or "" from the top
  ARGV[4] cursor score
  ARGV[5] cursor id

  Returns {ranked_size, id_1, score_1, id_2, score_2, ...}: ranked_size is how many entries the feed's
  ranked part still holds; fewer entries than asked means the ranked part is done.

  Slot: one (hash of the account's shard tag)
]]
local feed, swipes = KEYS[1], KEYS[2]
local self, want = ARGV[1], tonumber(ARGV[2])
local part, cursor_score, cursor_id = ARGV[3], ARGV[4], ARGV[5]

local out = {redis.call('ZCARD', feed)}
if part == 't' then return out end
local count = 0

local function after_cursor(score, member)
  return tonumber(score) < tonumber(cursor_score) or member < cursor_id
end

local top, offset = part == 'r' and cursor_score or '+inf', 0
repeat
  local rows = redis.call('ZRANGE', feed, top, '-inf', 'BYSCORE', 'REV', 'LIMIT', offset, want, 'WITHSCORES')
  offset = offset + want
  for i = 1, #rows, 2 do
    local member, score = rows[i], rows[i + 1]
    if (part == '' or after_cursor(score, member)) and member ~= self and redis.call('HEXISTS', swipes, member) == 0 then
      out[#out + 1] = member
      out[#out + 1] = score
      count = count + 1
      if count >= want then return out end
    end
  end
until #rows < want * 2
return out
