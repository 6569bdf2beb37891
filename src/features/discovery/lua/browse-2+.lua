#!lua flags=no-writes
--[[
  One index partition's share of a page of browse results (src/features/discovery/discovery-index-repository.ts runs it once per
  partition and merges): the partition's accounts that pass every filter, newest first (highest id first:
  ids are given in order of registration), strictly after the cursor position, never the caller. A
  filter group is a run of index sets of which an account must be in at least one (the interests in
  "any" mode; each interest alone in "all" mode; a city; a state); gender and age are read from the
  partition's roster, where every account's birthdate and gender are.

  Bounded work: a call examines at most about ARGV[9] entries (each index member read, each id probed
  in the roster, each membership looked up, counts one), whatever the query and the pool's size. When the
  budget runs out before the page is full, the call answers what it found so far with the position it
  got to (every id of the partition at or above it examined); the next call resumes strictly after it. So a page may come back short, even
  empty, with a position to resume from. Every call examines at least one account after the cursor.

  Plan: the set filter with the fewest accounts drives (its members are read whole, ordered and checked
  against the rest) when it holds at most ARGV[8] of them, reading it takes at most a quarter of the
  budget, and it is smaller than a walk is expected to look at; otherwise the partition's ids are walked
  from the newest down, probed in the roster a batch at a time, stepping over buckets that hold no
  account (one look-up in the partition's list of buckets). Either way candidates are checked a batch at
  a time (SMISMEMBER), the most selective filter first, and a batch is only started when the budget
  covers its worst case. The caller reads the cards of the merged page's entries.

  The roster buckets are named here from ARGV[10] and an id (bucket = floor(id / ARGV[13])): every one
  carries the partition's hash tag, so the script stays on the partition's slot. A bucket is a string of
  ARGV[14]-byte slots, one per id of the partition (src/features/discovery/roster-repository.ts), read whole once per call.

  KEYS[1] <pool>:<part>:accounts            hash: id -> the account (counted, for the partition's size)
  KEYS[2] <pool>:<part>:roster              sorted set: the roster buckets holding an account
  KEYS[3..] <pool>:<part>:disc:<index>:<v>  the partition's index sets, grouped by ARGV[7]
  ARGV[1] caller id
  ARGV[2] how many entries to return (one more than the page, to tell whether more follow)
  ARGV[3] the position: ids strictly below it are considered (a cursor id, or one more than the pool's
          id counter to start from the newest)
  ARGV[4] lowest birthdate YYYYMMDD, or "" for no age filter
  ARGV[5] highest birthdate YYYYMMDD
  ARGV[6] gender codes listed, comma-separated (src/features/discovery/roster-repository.ts), or "" for any
  ARGV[7] group sizes, comma-separated: how many consecutive KEYS, from KEYS[3], form each group
  ARGV[8] the most accounts a driving filter may hold (in this partition)
  ARGV[9] the budget: the most entries one call examines (at least one account is always examined);
          the caller gives each partition an equal share of the page's
  ARGV[10] the name of the partition's roster buckets but the bucket number
  ARGV[11] the partition (its ids are those equal to it modulo ARGV[12])
  ARGV[12] how many partitions there are
  ARGV[13] how many ids a roster bucket spans
  ARGV[14] the width of a roster slot, in bytes (a big-endian unsigned code; 0: no account)

  Returns {stop_id, examined, id_1, id_2, ...}: stop_id is "" unless the budget ended the page early (then
  it is the position to resume from); examined is how many entries the call examined.

  Slot: one (hash of the index partition tag)
]]
local accounts, buckets = KEYS[1], KEYS[2]
local self, want = tonumber(ARGV[1]), tonumber(ARGV[2])
local start = tonumber(ARGV[3]) - 1
local has_birth = ARGV[4] ~= ''
local birth_min, birth_max = tonumber(ARGV[4]), tonumber(ARGV[5])
local genders = nil
if ARGV[6] ~= '' then
  genders = {}
  for code in string.gmatch(ARGV[6], '%d+') do genders[tonumber(code)] = true end
end
local driver_limit, budget = tonumber(ARGV[8]), tonumber(ARGV[9])
local roster_prefix, part, partitions, span = ARGV[10], tonumber(ARGV[11]), tonumber(ARGV[12]), tonumber(ARGV[13])
local slot_bytes = tonumber(ARGV[14])
local slot_format = '>I' .. slot_bytes
local reads_roster = has_birth or genders ~= nil
-- Lua's C stack caps the arguments of one redis.call; stay well under it.
local CHUNK = 1000
local BATCH = 200

local spent = 0
local groups, key_count, k = {}, 0, 3
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

-- The roster codes of `ids` (in order; false where the id names no account): each bucket touched is
-- read whole (a few KiB) once per call, then its slots are decoded here.
local buckets_read = {}
local function roster_codes(ids)
  local codes = {}
  for i, id in ipairs(ids) do
    local bucket = math.floor(id / span)
    local bytes = buckets_read[bucket]
    if not bytes then
      bytes = redis.call('GET', roster_prefix .. bucket) or ''
      buckets_read[bucket] = bytes
    end
    local at = math.floor((id % span) / partitions) * slot_bytes + 1
    local code = 0
    if #bytes >= at + slot_bytes - 1 then code = struct.unpack(slot_format, bytes, at) end
    codes[i] = code > 0 and code
  end
  spent = spent + #ids
  return codes
end

-- Whether a roster code passes the age and gender filters.
local function roster_passes(code)
  if not code then return false end
  if genders and not genders[code % 10] then return false end
  if has_birth then
    local birth = math.floor(code / 10)
    if birth < birth_min or birth > birth_max then return false end
  end
  return true
end

-- The candidates (in order) that pass every set filter but the driving one (`skip`).
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
  return alive
end

-- {stop_id, id, id, ...} -> {stop_id, examined, id, id, ...}
local function answer(rows)
  table.insert(rows, 2, spent)
  return rows
end

local out, count = {''}, 0
-- The worst an account can cost once found: one look-up per index set.
local per_account = key_count
local examined = false

-- How many more accounts the budget lets a batch take, each costing `read` to read plus its look-ups.
local function batch_room(read)
  local room = math.floor((budget - spent) / (read + per_account))
  if room < 1 and not examined then room = 1 end
  return math.min(room, BATCH)
end

-- Checks `batch` (ids newest first, all of which passed the roster filters; the caller may be among
-- them: it is never listed) and appends what passes the set filters. True once the page is full.
local function take(batch, skip)
  local listed = {}
  for _, id in ipairs(batch) do
    if id ~= self then listed[#listed + 1] = id end
  end
  for _, id in ipairs(passing(listed, skip)) do
    out[#out + 1] = id
    count = count + 1
    if count >= want then return true end
  end
  return false
end

-- The page with no position to resume from: it is full, or nothing is left after it.
local function finished()
  out[1] = ''
  return answer(out)
end

-- The smallest set filter and how many accounts it holds; and, taking the filters as independent (the
-- genders listed as their share of four, ages as no narrowing), about how many ids a walk looks at to
-- fill the page.
local pool_size = math.max(redis.call('HLEN', accounts), 1)
local driver, driver_size, share = nil, math.huge, 1
for _, group in ipairs(groups) do
  share = share * math.min(group.size / pool_size, 1)
  if group.size < driver_size then driver, driver_size = group, group.size end
end
if genders then
  local listed = 0
  for _ in pairs(genders) do listed = listed + 1 end
  share = share * math.min(listed / 4, 1)
end
local walk_estimate = want / math.max(share, 1 / pool_size)

if driver and driver_size <= driver_limit and driver_size * 4 <= budget and driver_size < walk_estimate then
  local members, seen = {}, {}
  for _, entry in ipairs(driver.keys) do
    local got = redis.call('SMEMBERS', entry.key)
    spent = spent + #got
    for _, member in ipairs(got) do
      local id = tonumber(member)
      if not seen[id] and id <= start then
        seen[id] = true
        members[#members + 1] = id
      end
    end
  end
  table.sort(members, function(a, b) return a > b end)
  local next = 1
  while next <= #members do
    local room = batch_room(reads_roster and 1 or 0)
    if room < 1 then return answer(out) end
    local batch = {}
    for i = next, math.min(next + room - 1, #members) do batch[#batch + 1] = members[i] end
    next = next + #batch
    local kept = batch
    if reads_roster then
      kept = {}
      for i, code in ipairs(roster_codes(batch)) do
        if roster_passes(code) then kept[#kept + 1] = batch[i] end
      end
    end
    if take(kept, driver) then return finished() end
    out[1], examined = batch[#batch], true
  end
  return finished()
end

-- The partition's highest id at or below `id`.
local function own_id(id)
  return id - ((id - part) % partitions)
end

-- Walk the partition's ids from the newest down, probing the roster a batch at a time (a batch stays in
-- one bucket); past a bucket, on to the next one below that holds an account.
local id = own_id(start)
local bucket_known = nil
while id >= 1 do
  local bucket = math.floor(id / span)
  if bucket ~= bucket_known then
    if batch_room(1) < 1 then return answer(out) end
    local below = redis.call('ZRANGE', buckets, bucket, '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, 1)
    spent = spent + 1
    if #below == 0 then break end
    local found = tonumber(below[1])
    if found < bucket then
      -- every id from here down to the found bucket's top names no account
      id = own_id((found + 1) * span - 1)
      out[1] = id + 1
      bucket = found
    end
    bucket_known = bucket
  end
  local room = batch_room(1)
  if room < 1 then return answer(out) end
  local batch = {}
  while #batch < room and id >= 1 and math.floor(id / span) == bucket do
    batch[#batch + 1] = id
    id = id - partitions
  end
  local kept = {}
  for i, code in ipairs(roster_codes(batch)) do
    if roster_passes(code) then kept[#kept + 1] = batch[i] end
  end
  if #kept > 0 and take(kept, nil) then return finished() end
  out[1], examined = batch[#batch], true
end
return finished()
