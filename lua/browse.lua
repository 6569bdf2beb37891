#!lua flags=no-writes
--[[
  One index partition's share of a page of browse results (src/store/discovery-index.ts runs it once per
  partition and merges): the partition's accounts that pass every filter, newest first (creation ms, then
  id, descending), strictly after the cursor position, never the caller. A filter group is a run of index
  sets of which an account must be in at least one (a gender list; the interests in "any" mode; each
  interest alone in "all" mode; a city; a state); the optional birthdate range is one more filter.

  Bounded work: a call examines at most about ARGV[9] entries (each index member or pool entry read, each
  membership or score looked up, counts one), whatever the query and the pool's size. When the budget
  runs out before the page is full, the call answers what it found so far with the position of the last
  account it examined; the next call resumes strictly after it. So a page may come back short, even
  empty, with a position to resume from. Every call examines at least one account after the cursor.

  Plan: the filter with the fewest accounts drives (its members are read whole, ordered and checked
  against the rest) when it holds at most ARGV[8] of them, reading it takes at most a quarter of the
  budget, and it is smaller than a walk is expected to look at; otherwise the pool is walked newest
  first. Either way candidates are checked a batch at a time (SMISMEMBER, ZMSCORE), the most selective
  filter first, and a batch is only started when the budget covers its worst case.

  KEYS[1] <pool>:<part>:users               sorted set: id -> creation ms
  KEYS[2] <pool>:<part>:disc:birth          sorted set: id -> birthdate as YYYYMMDD
  KEYS[3] <pool>:<part>:accounts            hash: id -> the account (its card is read for the page's entries)
  KEYS[4..] <pool>:<part>:disc:<index>:<v>  the partition's index sets, grouped by ARGV[7]
  ARGV[1] caller id
  ARGV[2] how many entries to return (one more than the page, to tell whether more follow)
  ARGV[3] cursor creation ms, or "+inf" to start from the newest
  ARGV[4] cursor id, or "" to start from the newest
  ARGV[5] lowest birthdate YYYYMMDD, or "" for no age filter
  ARGV[6] highest birthdate YYYYMMDD
  ARGV[7] group sizes, comma-separated: how many consecutive KEYS, from KEYS[4], form each group
  ARGV[8] the most accounts a driving filter may hold (in this partition)
  ARGV[9] the budget: the most entries one call examines (at least one account is always examined);
          the caller gives each partition an equal share of the page's

  Returns {stop_ms, stop_id, examined, id_1, ms_1, card_1, id_2, ...} (a card is "" when missing; it is
  the account's first two lines, src/store/profile-cards.ts: its third, private, stays here): stop_ms
  and stop_id are "" unless the budget ended the page early (then they are the position to resume from);
  examined is how many entries the call examined.

  Slot: one (hash of the index partition tag)
]]
local users, birth = KEYS[1], KEYS[2]
local self, want = ARGV[1], tonumber(ARGV[2])
local cursor_ms, cursor_id = ARGV[3], ARGV[4]
local has_birth = ARGV[5] ~= ''
local birth_min, birth_max = tonumber(ARGV[5]), tonumber(ARGV[6])
local driver_limit, budget = tonumber(ARGV[8]), tonumber(ARGV[9])
local from_top = cursor_id == ''
-- Lua's C stack caps the arguments of one redis.call; stay well under it.
local CHUNK = 1000
local BATCH = 200

local spent = 0
local groups, key_count, k = {}, 0, 4
for size in string.gmatch(ARGV[7], '%d+') do
  local group = {keys = {}, size = 0}
  for i = k, k + tonumber(size) - 1 do
    local n = redis.call('SCARD', KEYS[i])
    group.keys[#group.keys + 1] = {key = KEYS[i], size = n}
    group.size = group.size + n
  end
  -- within a group, the largest set first: a member found there needs no further look-up
  table.sort(group.keys, function(a, b) return a.size > b.size end)
  groups[#groups + 1] = group
  key_count = key_count + #group.keys
  spent = spent + #group.keys
  k = k + tonumber(size)
end
-- the most selective group first: most candidates drop out at the first look-up
table.sort(groups, function(a, b) return a.size < b.size end)

local function after_cursor(ms, member)
  if from_top then return true end
  local a, b = tonumber(ms), tonumber(cursor_ms)
  return a < b or (a == b and member < cursor_id)
end

-- Calls `command key` with the members as arguments, a chunk at a time; returns the replies in order.
local function per_member(command, key, members)
  local out = {}
  for first = 1, #members, CHUNK do
    local call = {command, key}
    for i = first, math.min(first + CHUNK - 1, #members) do call[#call + 1] = members[i] end
    for _, reply in ipairs(redis.call(unpack(call))) do out[#out + 1] = reply end
  end
  spent = spent + #members
  return out
end

-- The candidates (in order) that pass every filter but the driving one (`skip`: a group, or 'birth').
local function passing(candidates, skip)
  local alive = candidates
  for _, group in ipairs(groups) do
    if #alive == 0 then return alive end
    if group ~= skip then
      local pending, found = alive, {}
      for _, entry in ipairs(group.keys) do
        if #pending == 0 then break end
        local still = {}
        for i, held in ipairs(per_member('SMISMEMBER', entry.key, pending)) do
          if held == 1 then found[pending[i]] = true else still[#still + 1] = pending[i] end
        end
        pending = still
      end
      local kept = {}
      for _, member in ipairs(alive) do
        if found[member] then kept[#kept + 1] = member end
      end
      alive = kept
    end
  end
  if has_birth and skip ~= 'birth' and #alive > 0 then
    local kept = {}
    for i, b in ipairs(per_member('ZMSCORE', birth, alive)) do
      if b and tonumber(b) >= birth_min and tonumber(b) <= birth_max then kept[#kept + 1] = alive[i] end
    end
    alive = kept
  end
  return alive
end

-- {stop_ms, stop_id, id, ms, id, ms, ...} -> {stop_ms, stop_id, examined, id, ms, card, id, ms, card, ...}
local function with_cards(rows)
  local out = {rows[1], rows[2], spent}
  if #rows == 2 then return out end
  local ids = {'HMGET', KEYS[3]}
  for i = 3, #rows, 2 do ids[#ids + 1] = rows[i] end
  local cards = redis.call(unpack(ids))
  for i = 3, #rows, 2 do
    out[#out + 1] = rows[i]
    out[#out + 1] = rows[i + 1]
    local account = cards[(i - 1) / 2]
    out[#out + 1] = account and string.match(account, '^[^\n]*\n[^\n]*') or ''
  end
  return out
end

local out, count = {'', ''}, 0
-- The worst an account can cost once read: one look-up per index set, and one for the birthdate.
local per_account = key_count + (has_birth and 1 or 0)
local examined = false

-- How many more accounts the budget lets a batch take, each costing `read` to read plus its look-ups.
local function batch_room(read)
  local room = math.floor((budget - spent) / (read + per_account))
  if room < 1 and not examined then room = 1 end
  return math.min(room, BATCH)
end

-- Checks `batch` (ids in page order, each with its creation ms in `ms_of`; the caller may be among
-- them: it moves the position on but is never listed) and appends what passes. True once the page is
-- full; otherwise the position becomes the batch's last account.
local function take(batch, ms_of, skip)
  local listed = {}
  for _, member in ipairs(batch) do
    if member ~= self then listed[#listed + 1] = member end
  end
  local ok = {}
  for _, member in ipairs(passing(listed, skip)) do ok[member] = true end
  for _, member in ipairs(batch) do
    if ok[member] then
      out[#out + 1] = member
      out[#out + 1] = ms_of[member]
      count = count + 1
      if count >= want then return true end
    end
  end
  local last = batch[#batch]
  out[1], out[2], examined = ms_of[last], last, true
  return false
end

-- The page with no position to resume from: it is full, or nothing is left after it.
local function finished()
  out[1], out[2] = '', ''
  return with_cards(out)
end

-- The smallest filter and how many accounts it holds; and, taking the filters as independent, about how
-- many accounts a walk of the pool looks at to fill the page.
local pool_size = math.max(redis.call('ZCARD', users), 1)
local driver, driver_size, share = nil, math.huge, 1
local function consider(g, size)
  share = share * math.min(size / pool_size, 1)
  if size < driver_size then driver, driver_size = g, size end
end
for _, group in ipairs(groups) do consider(group, group.size) end
if has_birth then
  consider('birth', redis.call('ZCOUNT', birth, birth_min, birth_max))
  spent = spent + 1
end
local walk_estimate = want / math.max(share, 1 / pool_size)

if driver and driver_size <= driver_limit and driver_size * 4 <= budget and driver_size < walk_estimate then
  local members = {}
  if driver == 'birth' then
    members = redis.call('ZRANGE', birth, birth_min, birth_max, 'BYSCORE')
    spent = spent + #members
  else
    local seen = {}
    for _, entry in ipairs(driver.keys) do
      local got = redis.call('SMEMBERS', entry.key)
      spent = spent + #got
      for _, member in ipairs(got) do
        if not seen[member] then
          seen[member] = true
          members[#members + 1] = member
        end
      end
    end
  end
  -- Order the driver's members after the cursor newest first: the distinct creation times sorted as
  -- plain numbers (cheap), the ids of one time (rarely more than one) as strings, descending.
  local ms_of, by_ms, times = {}, {}, {}
  for i, ms in ipairs(per_member('ZMSCORE', users, members)) do
    local member = members[i]
    if ms and after_cursor(ms, member) then
      ms_of[member] = ms
      local t = tonumber(ms)
      if not by_ms[t] then
        by_ms[t] = {}
        times[#times + 1] = t
      end
      local same = by_ms[t]
      same[#same + 1] = member
    end
  end
  table.sort(times)
  spent = spent + #members
  local ordered = {}
  for t = #times, 1, -1 do
    local same = by_ms[times[t]]
    if #same > 1 then table.sort(same) end
    for i = #same, 1, -1 do ordered[#ordered + 1] = same[i] end
  end

  local next = 1
  while next <= #ordered do
    local room = batch_room(0)
    if room < 1 then return with_cards(out) end
    local batch = {}
    for i = next, math.min(next + room - 1, #ordered) do batch[#batch + 1] = ordered[i] end
    next = next + #batch
    if take(batch, ms_of, driver) then return finished() end
  end
  return finished()
end

-- Walk the pool newest first. Each read resumes at the last creation time seen, skipping just the rows
-- of that time already read (a LIMIT offset growing read after read would be walked again each time).
local from, skip = cursor_ms, 0
while true do
  local room = batch_room(1)
  if room < 1 then return with_cards(out) end
  local rows = redis.call('ZRANGE', users, from, '-inf', 'BYSCORE', 'REV', 'LIMIT', skip, room, 'WITHSCORES')
  spent = spent + #rows / 2
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
  local batch, ms_of = {}, {}
  for i = 1, #rows, 2 do
    local member, ms = rows[i], rows[i + 1]
    if after_cursor(ms, member) then
      batch[#batch + 1] = member
      ms_of[member] = ms
    end
  end
  if #batch > 0 and take(batch, ms_of, nil) then return finished() end
end
return finished()
