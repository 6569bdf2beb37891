--[[
  Ranks one account's feed. A weighted ZUNIONSTORE of the account's interest sets scores every account
  sharing an interest by the summed weights of the shared interests; the best ARGV[2] of them that are
  neither the account itself nor swiped by it become the feed (small enough to stay a compact listpack).
  Interests the account dropped since it was last spread are joined with weight 0, so the scratch also
  names, with score 0, the accounts whose feeds must drop it. The scratch stays (with a TTL) for
  spreading the account into the other feeds, unless ARGV[4] is 0. The account is marked ranked, and its
  floor (the feed's lowest score when full, else 0) recorded for spreading others into its feed.

  KEYS[1] feed:<pool>:<id>                  sorted set: candidate id -> score (replaced)
  KEYS[2] swipes:<pool>:<id>                hash: fields are the ids the account swiped (read only)
  KEYS[3] disc:<pool>:ranked                sorted set: id -> ranked-at ms
  KEYS[4] disc:<pool>:floors                sorted set: id -> the feed's floor
  KEYS[5] disc:<pool>:scratch:<id>          sorted set: candidate id -> score over every sharer (replaced)
  KEYS[6..] disc:<pool>:interest:<name>     the account's interests, then the dropped ones
  ARGV[1] id
  ARGV[2] feed size
  ARGV[3] now, ms
  ARGV[4] scratch lifetime, seconds; 0 drops the scratch at once (a ranking that spreads nothing)
  ARGV[5..] one integer weight per interest key, 0 for dropped interests

  Returns the number of accounts in the scratch (the account itself included).
]]
local feed, swipes, ranked, floors, scratch = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local id, size = ARGV[1], tonumber(ARGV[2])

redis.call('DEL', feed)
local total, floor = 0, 0
if #KEYS > 5 then
  local union = {'ZUNIONSTORE', scratch, #KEYS - 5}
  for i = 6, #KEYS do union[#union + 1] = KEYS[i] end
  union[#union + 1] = 'WEIGHTS'
  for i = 5, #ARGV do union[#union + 1] = ARGV[i] end
  total = redis.call(unpack(union))

  local picked, offset, batch = {}, 0, size * 2
  while #picked < size * 2 do
    local rows = redis.call('ZRANGE', scratch, '+inf', '(0', 'BYSCORE', 'REV', 'LIMIT', offset, batch, 'WITHSCORES')
    if #rows == 0 then break end
    for i = 1, #rows, 2 do
      local member = rows[i]
      if member ~= id and redis.call('HEXISTS', swipes, member) == 0 then
        picked[#picked + 1] = rows[i + 1]
        picked[#picked + 1] = member
        if #picked >= size * 2 then break end
      end
    end
    offset = offset + batch
  end
  if #picked > 0 then redis.call('ZADD', feed, unpack(picked)) end
  if #picked >= size * 2 then floor = picked[#picked - 1] end
  if tonumber(ARGV[4]) > 0 then
    redis.call('EXPIRE', scratch, ARGV[4])
  else
    redis.call('UNLINK', scratch)
  end
else
  redis.call('DEL', scratch)
end
redis.call('ZADD', ranked, ARGV[3], id)
redis.call('ZADD', floors, floor, id)
return total
