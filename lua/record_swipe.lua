#!lua
--[[
  Records a swipe and, when it completes a mutual like, creates the pair's one match, all or nothing.
  The latest swipe on a target replaces the earlier one. The target is looked up under the caller's own
  pool, so a target of the other pool is not found. A like or super_like whose target already liked or
  super-liked back creates the match, unless the pair already has one (then that match is returned) or
  once had one that was ended (an unmatched pair never matches again). The target leaves the swiper's feed,
  which then has room: its floor (see lua/rank_feed.lua) drops to 0.

  When the swipe has news (a match was created, or a super like is announced to its target), the events'
  pending record is written to the outbox in this same script (see lua/flush_events.lua), so the events
  survive any crash after the commit; a swipe without news writes no record.

  KEYS[1]  user:<pool>:<from>          the swiper (interests, for the match)
  KEYS[2]  user:<pool>:<to>            the target; must exist
  KEYS[3]  swipes:<pool>:<from>        target id -> kind
  KEYS[4]  swipes:<pool>:<to>          read only: did the target like the swiper?
  KEYS[5]  feed:<pool>:<from>          the target is removed from it
  KEYS[6]  pair:<pool>:<lo>:<hi>       the pair's match id, or "ended:<id>"
  KEYS[7]  match:<pool>:<candidate>    written only when a match is created
  KEYS[8]  matches:<pool>:<from>       the users' current matches by last activity
  KEYS[9]  matches:<pool>:<to>
  KEYS[10] pool:<pool>:matches         the pool's current matches by last activity
  KEYS[11] disc:<pool>:floors          ranked id -> its feed's floor (the swiper's, if ranked, is set to 0)
  KEYS[12] outbox:<pool>               pending id -> record (a JSON array of event specs)
  KEYS[13] outbox:<pool>:due           pending id -> commit time, ms
  KEYS[14] rl:like:<pool>:<from>       the swiper's swipe counter (fixed window, as lua/fixed_window_hit.lua)
  KEYS[15] idem:...                    optional: the Idempotency-Key record
  ARGV[1] from id
  ARGV[2] to id
  ARGV[3] kind: like | pass | super_like
  ARGV[4] now, ms (the match's activity score)
  ARGV[5] now, ISO-8601 (the swipe's and the match's created_at)
  ARGV[6] candidate match id (reserved by the caller; used only if a match is created)
  ARGV[7] Idempotency-Key record lifetime, seconds
  ARGV[8] swipes allowed per window (0: no limit)
  ARGV[9] the window's length, ms

  Counting here rather than in a script of its own spares the hottest request a second round trip.
  Returns {'rate_limited', ms until the window ends} past the limit (nothing else written); {'not_found'}
  when the target is not in the pool; {'replay', record} when the Idempotency-Key was seen (nothing
  written); else {'ok', record, shared interests as JSON or '', pending record or ''},
  where record = "<kind>|<created_at>|<none|created|existing>|<match id or ''>|<pending id or ''>".
  A super like is announced unless the swiper's previous swipe on the target was already a super like.

  Slot: several (both users, their swipes, feed, pair, match, match lists, floors, outbox): not yet cluster-ready
]]
local from, to, kind = ARGV[1], ARGV[2], ARGV[3]
local idem = KEYS[15]

local limit = tonumber(ARGV[8])
if limit > 0 then
  local hits = redis.call('INCR', KEYS[14])
  if hits == 1 then redis.call('PEXPIRE', KEYS[14], ARGV[9]) end
  if hits > limit then
    local left = redis.call('PTTL', KEYS[14])
    if left < 0 then
      redis.call('PEXPIRE', KEYS[14], ARGV[9])
      left = tonumber(ARGV[9])
    end
    return {'rate_limited', left}
  end
end

if idem then
  local done = redis.call('GET', idem)
  if done then return {'replay', done} end
end
if redis.call('EXISTS', KEYS[2]) == 0 then return {'not_found'} end

-- Whether a match is made is read before anything is written, so that a refusal writes nothing.
local state, match_id, shared = 'none', '', ''
if kind ~= 'pass' then
  local pair = redis.call('GET', KEYS[6])
  if pair then
    if string.sub(pair, 1, 6) ~= 'ended:' then state, match_id = 'existing', pair end
  else
    local back = redis.call('HGET', KEYS[4], from)
    if back == 'like' or back == 'super_like' then state, match_id = 'created', ARGV[6] end
  end
end
if state == 'created' and redis.call('EXISTS', KEYS[7]) == 1 then
  return redis.error_reply('candidate match id ' .. ARGV[6] .. ' is taken')
end

local previous = kind == 'super_like' and redis.call('HGET', KEYS[3], to) or ''
redis.call('HSET', KEYS[3], to, kind)
if redis.call('ZREM', KEYS[5], to) == 1 then redis.call('ZADD', KEYS[11], 'XX', 0, from) end

local function interests(key)
  local raw = redis.call('HGET', key, 'interests')
  if not raw then return {} end
  local ok, list = pcall(cjson.decode, raw)
  if ok and type(list) == 'table' then return list end
  return {}
end

-- The pair's shared interests, in the order of the lower id's list, as a JSON array.
local function shared_interests()
  local first, second = interests(KEYS[1]), interests(KEYS[2])
  if tonumber(to) < tonumber(from) then first, second = second, first end
  local other = {}
  for _, interest in ipairs(second) do other[interest] = true end
  local out = {}
  for _, interest in ipairs(first) do
    if other[interest] then out[#out + 1] = cjson.encode(interest) end
  end
  return '[' .. table.concat(out, ',') .. ']'
end

if state == 'created' then
  shared = shared_interests()
  local lo, hi = from, to
  if tonumber(to) < tonumber(from) then lo, hi = to, from end
  redis.call('HSET', KEYS[7], 'id', match_id, 'user_a', lo, 'user_b', hi, 'created_at', ARGV[5], 'shared_interests', shared)
  redis.call('SET', KEYS[6], match_id)
  redis.call('ZADD', KEYS[8], ARGV[4], match_id)
  redis.call('ZADD', KEYS[9], ARGV[4], match_id)
  redis.call('ZADD', KEYS[10], ARGV[4], match_id)
end

local events = {}
if kind == 'super_like' and previous ~= 'super_like' then
  events[#events + 1] = '{"type":"like.received","from":' .. from .. ',"to":' .. to .. ',"created_at":"' .. ARGV[5] .. '"}'
end
if state == 'created' then
  local lo, hi = from, to
  if tonumber(to) < tonumber(from) then lo, hi = to, from end
  events[#events + 1] = '{"type":"match.created","match":{"id":' .. match_id .. ',"users":[' .. lo .. ',' .. hi ..
    '],"created_at":"' .. ARGV[5] .. '","shared_interests":' .. shared .. '}}'
end
local pending_id, pending = '', ''
if #events > 0 then
  pending_id = state == 'created' and ('c' .. match_id) or ('l' .. from .. ':' .. to .. ':' .. ARGV[4])
  pending = '[' .. table.concat(events, ',') .. ']'
  redis.call('HSET', KEYS[12], pending_id, pending)
  redis.call('ZADD', KEYS[13], ARGV[4], pending_id)
end

local record = kind .. '|' .. ARGV[5] .. '|' .. state .. '|' .. match_id .. '|' .. pending_id
if idem then redis.call('SET', idem, record, 'EX', ARGV[7]) end
return {'ok', record, shared, pending}
