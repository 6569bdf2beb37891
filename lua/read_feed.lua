#!lua flags=no-writes
--[[
  One page of an account's feed: first its ranked part, best first (score, then id, descending), then
  everyone else of the pool, newest first (creation ms, then id, descending), never the account itself,
  nobody it swiped, and nobody twice (the rest skips whoever is in the ranked part). A page resumes
  strictly after the cursor position, so paging neither repeats nor skips an entry. Bounded work: the
  ranked part holds at most the feed size, and at most ARGV[6] entries of the rest are looked at.

  KEYS[1] feed:<pool>:<id>                  sorted set: candidate id -> score
  KEYS[2] swipes:<pool>:<id>                hash: fields are the ids the account swiped
  KEYS[3] pool:<pool>:users                 sorted set: id -> creation ms
  KEYS[4] disc:<pool>:ranked                sorted set: ids whose feed was ranked
  KEYS[5] disc:<pool>:cards                 hash: id -> profile card (read for the viewer and the page)
  ARGV[1] id
  ARGV[2] how many entries to return (one more than the page, to tell whether more follow)
  ARGV[3] cursor part: "r" (ranked), "t" (the rest), or "" to start from the top
  ARGV[4] cursor score (ranked score, or creation ms in the rest)
  ARGV[5] cursor id
  ARGV[6] most entries of the rest to look at in one call

  Returns {ranked_at, ranked_size, stop_score, stop_id, viewer_card, part_1, id_1, score_1, card_1,
  part_2, ...}: ranked_at is when the feed was last ranked (ms, "" when never) and ranked_size how many
  entries its ranked part still holds; stop_score and stop_id are "" unless the look-at limit ended the
  page early (then they are the position to resume from, in the rest); a card is "" when missing.

  Slot: several (feed and swipes of the account, pool:<pool>:users, disc:<pool>:*): not yet cluster-ready
]]
local feed, swipes, users = KEYS[1], KEYS[2], KEYS[3]
local self, want = ARGV[1], tonumber(ARGV[2])
local part, cursor_score, cursor_id = ARGV[3], ARGV[4], ARGV[5]
local scan_limit = tonumber(ARGV[6])

local out = {redis.call('ZSCORE', KEYS[4], self) or '', redis.call('ZCARD', feed), '', '', ''}
local count = 0

-- Adds the viewer's card and each entry's card: one HMGET for the whole page.
local function with_cards()
  local ids = {'HMGET', KEYS[5], self}
  for i = 6, #out, 3 do ids[#ids + 1] = out[i + 1] end
  local cards = redis.call(unpack(ids))
  local full = {out[1], out[2], out[3], out[4], cards[1] or ''}
  for i = 6, #out, 3 do
    full[#full + 1] = out[i]
    full[#full + 1] = out[i + 1]
    full[#full + 1] = out[i + 2]
    full[#full + 1] = cards[(i - 6) / 3 + 2] or ''
  end
  return full
end

local function after_cursor(score, member)
  return tonumber(score) < tonumber(cursor_score) or member < cursor_id
end

if part == '' or part == 'r' then
  local top, offset = part == 'r' and cursor_score or '+inf', 0
  repeat
    local rows = redis.call('ZRANGE', feed, top, '-inf', 'BYSCORE', 'REV', 'LIMIT', offset, want, 'WITHSCORES')
    offset = offset + want
    for i = 1, #rows, 2 do
      local member, score = rows[i], rows[i + 1]
      if (part == '' or after_cursor(score, member)) and member ~= self and redis.call('HEXISTS', swipes, member) == 0 then
        out[#out + 1] = 'r'
        out[#out + 1] = member
        out[#out + 1] = score
        count = count + 1
        if count >= want then return with_cards() end
      end
    end
  until #rows < want * 2
  part, cursor_score, cursor_id = '', '+inf', ''
end

-- Each batch resumes at the last score seen, skipping just the rows of that score already seen: a LIMIT
-- offset growing batch after batch would be walked again by every batch.
local from, skip, batch, scanned = cursor_score, 0, 200, 0
while count < want do
  local rows = redis.call('ZRANGE', users, from, '-inf', 'BYSCORE', 'REV', 'LIMIT', skip, batch, 'WITHSCORES')
  if #rows == 0 then break end
  local last = rows[#rows]
  if tonumber(last) == tonumber(from) then
    skip = skip + #rows / 2
  else
    skip = 0
    for i = #rows, 2, -2 do
      if rows[i] ~= last then break end
      skip = skip + 1
    end
    from = last
  end
  for i = 1, #rows, 2 do
    local member, score = rows[i], rows[i + 1]
    if part == '' or after_cursor(score, member) then
      if member ~= self and not redis.call('ZSCORE', feed, member) and redis.call('HEXISTS', swipes, member) == 0 then
        out[#out + 1] = 't'
        out[#out + 1] = member
        out[#out + 1] = score
        count = count + 1
        if count >= want then return with_cards() end
      end
      scanned = scanned + 1
      if scanned >= scan_limit then
        out[3], out[4] = score, member
        return with_cards()
      end
    end
  end
end
return with_cards()
