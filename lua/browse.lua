#!lua flags=no-writes
--[[
  One page of browse results: the pool's accounts that pass every filter, newest first (creation ms, then
  id, descending), strictly after the cursor position, never the caller. A filter group is a run of index
  sets of which an account must be in at least one (a gender list; the interests in "any" mode; each
  interest alone in "all" mode; a city; a state); the optional birthdate range is one more filter.
  Plan: the filter with the fewest accounts drives (its members are checked against the rest and sorted)
  when it holds at most ARGV[8] of them and fewer than a walk is expected to look at; otherwise the pool
  is walked newest first and each account checked, looking at no more than ARGV[9] accounts in one call
  (a page may then come back short, with the cursor to resume from).

  KEYS[1] pool:<pool>:users                 sorted set: id -> creation ms
  KEYS[2] disc:<pool>:birth                 sorted set: id -> birthdate as YYYYMMDD
  KEYS[3] disc:<pool>:cards                 hash: id -> profile card (read for the page's entries)
  KEYS[4..] disc:<pool>:<index>:<value>     index sets, grouped by ARGV[7]
  ARGV[1] caller id
  ARGV[2] how many entries to return (one more than the page, to tell whether more follow)
  ARGV[3] cursor creation ms, or "+inf" to start from the newest
  ARGV[4] cursor id, or "" to start from the newest
  ARGV[5] lowest birthdate YYYYMMDD, or "" for no age filter
  ARGV[6] highest birthdate YYYYMMDD
  ARGV[7] group sizes, comma-separated: how many consecutive KEYS, from KEYS[4], form each group
  ARGV[8] the most accounts a driving filter may hold
  ARGV[9] the most accounts to look at when walking the pool

  Returns {stop_ms, stop_id, id_1, ms_1, card_1, id_2, ...} (a card is "" when missing); stop_ms and
  stop_id are "" unless the walk limit ended the page early (then they are the position to resume from).
]]
local users, birth = KEYS[1], KEYS[2]
local self, want = ARGV[1], tonumber(ARGV[2])
local cursor_ms, cursor_id = ARGV[3], ARGV[4]
local has_birth = ARGV[5] ~= ''
local birth_min, birth_max = tonumber(ARGV[5]), tonumber(ARGV[6])
local driver_limit, walk_limit = tonumber(ARGV[8]), tonumber(ARGV[9])
local from_top = cursor_id == ''

local groups, k = {}, 4
for size in string.gmatch(ARGV[7], '%d+') do
  local group = {}
  for i = k, k + tonumber(size) - 1 do group[#group + 1] = KEYS[i] end
  groups[#groups + 1] = group
  k = k + tonumber(size)
end

local function after_cursor(ms, member)
  if from_top then return true end
  local a, b = tonumber(ms), tonumber(cursor_ms)
  return a < b or (a == b and member < cursor_id)
end

local function in_group(group, member)
  for _, key in ipairs(group) do
    if redis.call('SISMEMBER', key, member) == 1 then return true end
  end
  return false
end

local function passes(member, skip_group, skip_birth)
  if member == self then return false end
  for g, group in ipairs(groups) do
    if g ~= skip_group and not in_group(group, member) then return false end
  end
  if has_birth and not skip_birth then
    local b = redis.call('ZSCORE', birth, member)
    if not b or tonumber(b) < birth_min or tonumber(b) > birth_max then return false end
  end
  return true
end

-- {stop_ms, stop_id, id, ms, id, ms, ...} -> {stop_ms, stop_id, id, ms, card, id, ms, card, ...}
local function with_cards(rows)
  local out = {rows[1], rows[2]}
  if #rows == 2 then return out end
  local ids = {'HMGET', KEYS[3]}
  for i = 3, #rows, 2 do ids[#ids + 1] = rows[i] end
  local cards = redis.call(unpack(ids))
  for i = 3, #rows, 2 do
    out[#out + 1] = rows[i]
    out[#out + 1] = rows[i + 1]
    out[#out + 1] = cards[(i - 1) / 2] or ''
  end
  return out
end

-- The smallest filter and how many accounts it holds; and, taking the filters as independent, about how
-- many accounts a walk of the pool looks at to fill the page.
local pool_size = math.max(redis.call('ZCARD', users), 1)
local driver, driver_size, share = nil, math.huge, 1
local function consider(g, size)
  share = share * math.min(size / pool_size, 1)
  if size < driver_size then driver, driver_size = g, size end
end
for g, group in ipairs(groups) do
  local size = 0
  for _, key in ipairs(group) do size = size + redis.call('SCARD', key) end
  consider(g, size)
end
if has_birth then consider('birth', redis.call('ZCOUNT', birth, birth_min, birth_max)) end
local walk_estimate = want / math.max(share, 1 / pool_size)

local out = {'', ''}

if driver and driver_size <= driver_limit and driver_size < walk_estimate then
  local members = {}
  if driver == 'birth' then
    members = redis.call('ZRANGE', birth, birth_min, birth_max, 'BYSCORE')
  else
    local seen = {}
    for _, key in ipairs(groups[driver]) do
      for _, member in ipairs(redis.call('SMEMBERS', key)) do
        if not seen[member] then
          seen[member] = true
          members[#members + 1] = member
        end
      end
    end
  end
  local found = {}
  for _, member in ipairs(members) do
    if passes(member, driver, driver == 'birth') then
      local ms = redis.call('ZSCORE', users, member)
      if ms and after_cursor(ms, member) then found[#found + 1] = {tonumber(ms), member, ms} end
    end
  end
  table.sort(found, function(a, b)
    if a[1] ~= b[1] then return a[1] > b[1] end
    return a[2] > b[2]
  end)
  for i = 1, math.min(want, #found) do
    out[#out + 1] = found[i][2]
    out[#out + 1] = found[i][3]
  end
  return with_cards(out)
end

local count, offset, batch, looked = 0, 0, 200, 0
while count < want do
  local rows = redis.call('ZRANGE', users, cursor_ms, '-inf', 'BYSCORE', 'REV', 'LIMIT', offset, batch, 'WITHSCORES')
  if #rows == 0 then break end
  offset = offset + batch
  for i = 1, #rows, 2 do
    local member, ms = rows[i], rows[i + 1]
    if after_cursor(ms, member) then
      if passes(member, nil, false) then
        out[#out + 1] = member
        out[#out + 1] = ms
        count = count + 1
        if count >= want then return with_cards(out) end
      end
      looked = looked + 1
      if looked >= walk_limit then
        out[1], out[2] = ms, member
        return with_cards(out)
      end
    end
  end
end
return with_cards(out)
