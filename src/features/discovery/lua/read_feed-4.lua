#!lua flags=no-writes
--[[
  One page of an account's feed as of one instant: the ranked part best first (score, then id,
  descending), never the account itself, nor anybody it swiped, nor anybody a block keeps from it (either
  way), strictly after the cursor position; and,
  when the caller passes the rest's candidates (everyone else of the pool newest first, gathered from the
  index partitions by src/features/discovery/feed-repository.ts), those of them neither in the ranked part nor swiped, to
  fill the page. Both parts are read here together so that an account spread into the ranked part
  between two reads is shown in one part or the other, never dropped from both. Bounded: the ranked part
  holds at most the feed size, and the caller passes at most its scan limit of candidates.

  KEYS[1] <pool>:<shard>:feed:<id>          sorted set: candidate id -> score
  KEYS[2] <pool>:<shard>:swipes:<id>        hash: fields are the ids the account swiped
  KEYS[3] <pool>:<shard>:hidden:<id>        hash: fields are the ids a block keeps from the account
  KEYS[4] <pool>:<shard>:likers:<id>        sorted set: the account's newest likers
  ARGV[1] id
  ARGV[2] how many entries to return (one more than the page, to tell whether more follow)
  ARGV[3] cursor part: "r" (ranked), "t" (the rest: no ranked entry is returned), or "" from the top
  ARGV[4] cursor score
  ARGV[5] cursor id
  ARGV[6...] optional: the rest's candidate ids, newest first

  Returns {ranked_size, ranked_count, {liker_id, ...}, id_1, score_1, ..., id_n, score_n, rest_id_1, ...}:
  ranked_size is how many entries the feed's ranked part still holds, ranked_count how many ranked
  entries follow (fewer than asked means the ranked part is done), then which of the returned ids are
  among the account's newest likers (for the page's liked_you), then the entries, then the rest's ids.

  Slot: one (hash of the account's shard tag)
]]
local feed, swipes, hidden, likers = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local self, want = ARGV[1], tonumber(ARGV[2])
local part, cursor_score, cursor_id = ARGV[3], ARGV[4], ARGV[5]

local liked = {}
local out = {redis.call('ZCARD', feed), 0, liked}
local count = 0

local function shown(member)
  return member ~= self and redis.call('HEXISTS', swipes, member) == 0 and redis.call('HEXISTS', hidden, member) == 0
end

local function take(member)
  out[#out + 1] = member
  if redis.call('ZSCORE', likers, member) then liked[#liked + 1] = member end
  count = count + 1
end

local function after_cursor(score, member)
  return tonumber(score) < tonumber(cursor_score) or member < cursor_id
end

local function ranked_part()
  local top, offset = part == 'r' and cursor_score or '+inf', 0
  repeat
    local rows = redis.call('ZRANGE', feed, top, '-inf', 'BYSCORE', 'REV', 'LIMIT', offset, want, 'WITHSCORES')
    offset = offset + want
    for i = 1, #rows, 2 do
      local member, score = rows[i], rows[i + 1]
      if (part == '' or after_cursor(score, member)) and shown(member) then
        take(member)
        out[#out + 1] = score
        if count >= want then return end
      end
    end
  until #rows < want * 2
end

if part ~= 't' then ranked_part() end
out[2] = count
for i = 6, #ARGV do
  if count >= want then break end
  local member = ARGV[i]
  if not redis.call('ZSCORE', feed, member) and shown(member) then take(member) end
end
return out
