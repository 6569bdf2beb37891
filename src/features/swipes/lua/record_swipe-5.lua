#!lua
--[[
  Records a swipe in the pair's state and, when it completes a mutual like, creates the pair's one match,
  all or nothing. Everything the decision needs (both users' latest swipes on each other and the pair's
  match state) is in the pair's hash, so "one match per pair" holds whatever runs concurrently.
  The latest swipe on a target replaces the earlier one. A like or super_like whose target already liked or
  super-liked back creates the match, unless the pair already has one (then that match is returned) or
  once had one that was ended (an unmatched pair never matches again: the outcome is 'ended'). A pass on
  someone the swiper is matched with is recorded and the match stays (the outcome is 'kept').
  An Idempotency-Key names one request: its record holds the kind it was sent with (the target is in the
  key), and the same key with another kind is refused without writing anything.

  When the swipe has news, what it changes in other hash slots is written, in this same script, as a
  pending record to the shard's outbox: for a new match the match in both users' lists and the pool's, and
  the events (a match, a super like announced). Each is an idempotent outbox step
  (src/platform/outbox/outbox-runner.ts); the sweeper completes a record left behind. A swipe without news
  writes no record.

  A first pass on a target (the swiper's list holds nothing for it) is not brought here: the pair can hold
  no like of the swiper's for it to replace, and a pass never matches.

  The caller has counted the swipe (lua/begin_swipe-6.lua, in the swiper's slot), checked that the target
  exists in the caller's pool and is not suspended, and reserved a candidate match id of this shard; it
  applies the swipe to the swiper's own keys beside this call.

  KEYS[1] am:<pool>:{shard}:pair:<lo>:<hi>     the pair's state (see src/platform/redis/keys.ts)
  KEYS[2] am:<pool>:{shard}:match:<candidate>  written only when a match is created
  KEYS[3] am:<pool>:{shard}:outbox             pending id -> record (a JSON array of effects)
  KEYS[4] am:<pool>:{shard}:outbox:due         pending id -> commit time, ms
  KEYS[5] am:<pool>:{shard}:idem:...           the Idempotency-Key record (not touched when ARGV[7] is 0)
  ARGV[1] from id
  ARGV[2] to id
  ARGV[3] kind: like | pass | super_like
  ARGV[4] now, ms (the match's activity score)
  ARGV[5] now, ISO-8601 (the swipe's and the match's created_at)
  ARGV[6] candidate match id (reserved by the caller; used only if a match is created)
  ARGV[7] Idempotency-Key record lifetime, seconds; 0 when the request has no Idempotency-Key
  ARGV[8] the swiper's interests (JSON array), ARGV[9] the target's: for the match's shared interests

  Returns {'replay', record} when the Idempotency-Key was seen with this kind, {'key_reused', record} when
  it was seen with another kind (nothing written either way); else
  {'ok', record, shared interests as JSON or '', pending record}, where
  record = "<kind>|<created_at>|<none|created|existing|kept|ended>|<match id or ''>|<pending id or ''>"
  (a match id with created, existing, and kept: the current match a pass left in place).
  While either user of the pair blocks the other (the pair's `block:<id>` fields), nothing is written to the
  pair: no swipe, no match, no announcement; the swipe answers as one recorded without news ('none', or
  'ended' for a pair once matched). The swiper's own step (lua/begin_swipe-6.lua) refuses a swipe on an
  account a block keeps from it before this is called; this covers a block that lands in between.
  A super like is announced at most once per swiper and target, ever: the pair's hash keeps the field
  `sl:<from id>` once the swiper's super like was announced (the pair's hash has no lifetime, so this holds
  for as long as the pair's record lives), so a super_like alternating with pass does not notify again.

  Slot: one (hash of the pair's shard tag)
]]
--- @include "includes/idempotency"
--- @include "includes/outbox"

local from, to, kind = ARGV[1], ARGV[2], ARGV[3]
local pair = KEYS[1]

local done = idempotency_record(KEYS[5], ARGV[7])
if done then
  if string.sub(done, 1, #kind + 1) ~= kind .. '|' then return {'key_reused', done} end
  return {'replay', done}
end

-- Whether a match is made is read before anything is written, so that a refusal writes nothing.
local outcome, match_id, shared = 'none', '', ''
local read = redis.call('HMGET', pair, 'match', 'block:' .. from, 'block:' .. to)
local current = read[1]
local ended = current and string.sub(current, 1, 6) == 'ended:'

-- While either blocks the other, a swipe changes nothing here and answers as a plain recorded one.
if read[2] or read[3] then
  if ended then outcome = 'ended' end
  local record = kind .. '|' .. ARGV[5] .. '|' .. outcome .. '||'
  keep_idempotency_record(KEYS[5], ARGV[7], record)
  return {'ok', record, '', ''}
end
if kind == 'pass' then
  if current and not ended then outcome, match_id = 'kept', current end
else
  if ended then
    outcome = 'ended'
  elseif current then
    outcome, match_id = 'existing', current
  else
    local back = redis.call('HGET', pair, to)
    if back == 'like' or back == 'super_like' then outcome, match_id = 'created', ARGV[6] end
  end
end
if outcome == 'created' and redis.call('EXISTS', KEYS[2]) == 1 then
  return redis.error_reply('candidate match id ' .. ARGV[6] .. ' is taken')
end

redis.call('HSET', pair, from, kind)

local function decode(raw)
  local ok, list = pcall(cjson.decode, raw)
  if ok and type(list) == 'table' then return list end
  return {}
end

-- The pair's shared interests, in the order of the lower id's list.
local function shared_interests()
  local first, second = decode(ARGV[8]), decode(ARGV[9])
  if tonumber(to) < tonumber(from) then first, second = second, first end
  local other = {}
  for _, interest in ipairs(second) do other[interest] = true end
  local out = {}
  for _, interest in ipairs(first) do
    if other[interest] then out[#out + 1] = interest end
  end
  return out
end

local lo, hi = from, to
if tonumber(to) < tonumber(from) then lo, hi = to, from end
local shared_list = {}
if outcome == 'created' then
  shared_list = shared_interests()
  shared = #shared_list > 0 and cjson.encode(shared_list) or '[]'
  redis.call('HSET', KEYS[2], 'id', match_id, 'user_a', lo, 'user_b', hi, 'created_at', ARGV[5], 'shared_interests', shared)
  redis.call('HSET', pair, 'match', match_id)
end

local effects = {}
if kind == 'super_like' and redis.call('HSETNX', pair, 'sl:' .. from, '1') == 1 then
  effects[#effects + 1] = {type = 'like.received', from = tonumber(from), to = tonumber(to), created_at = ARGV[5]}
end
if outcome == 'created' then
  local users = {tonumber(lo), tonumber(hi)}
  local match = {id = tonumber(match_id), users = users, created_at = ARGV[5]}
  if #shared_list > 0 then match.shared_interests = shared_list end
  effects[#effects + 1] = {type = 'match.listed', match_id = tonumber(match_id), users = users, at = tonumber(ARGV[4])}
  effects[#effects + 1] = {type = 'match.created', match = match}
end
local pending_id, pending = '', ''
if #effects > 0 then
  pending_id = 'l' .. from .. ':' .. to .. ':' .. ARGV[4]
  if outcome == 'created' then pending_id = 'c' .. match_id end
  pending = write_outbox(KEYS[3], KEYS[4], pending_id, effects, ARGV[4])
end

local record = kind .. '|' .. ARGV[5] .. '|' .. outcome .. '|' .. match_id .. '|' .. pending_id
keep_idempotency_record(KEYS[5], ARGV[7], record)
return {'ok', record, shared, pending}
