--[[
  A match's read state (one hash per match, beside its thread, living as long as the thread):
    sent:<user>    messages the user sent since the thread kept read state
    seen:<user>    how many of those of the other user's this user has read (or can no longer read: dropped)
    at:<user>      the id of the newest message the user marked read
  Each thread entry keeps the two users' `sent` counts when it was appended (fields `a` for user_a and `z`
  for user_b; both include the message). A user's unread count is the other's `sent` less the user's
  `seen`: two fields, whatever the thread's size. A thread older than its read state has no counts: its
  messages count as read.
]]

--- The other user's `sent` count at a thread entry (its flat field list), for `user` (one of the match's two, `users`).
local function others_sent_at(fields, users, user)
  local wanted = user == users[1] and 'z' or 'a'
  for i = 1, #fields - 1, 2 do
    if fields[i] == wanted then return tonumber(fields[i + 1]) or 0 end
  end
  return 0
end

--- Raises a user's `seen` to `count` (it never goes down).
local function raise_seen(reads, user, count)
  local field = 'seen:' .. user
  if count > tonumber(redis.call('HGET', reads, field) or '0') then redis.call('HSET', reads, field, count) end
end

--- The user's unread count: the other's `sent` less the user's `seen`, never below zero.
local function unread_count(reads, users, user)
  local other = user == users[1] and users[2] or users[1]
  local counts = redis.call('HMGET', reads, 'sent:' .. other, 'seen:' .. user)
  local unread = tonumber(counts[1] or '0') - tonumber(counts[2] or '0')
  return unread > 0 and unread or 0
end
