--[[
  A match's read state (one hash per match, beside its thread, living as long as the thread):
    sent:<user>    messages the user sent since the thread kept read state
    seen:<user>    how many of those of the other user's this user has read (or can no longer read: dropped)
    at:<user>      the id of the newest message the user marked read
    m:<message id> "<user_a's sent>:<user_b's sent>" when the message was appended (both counts include it)
  A user's unread count is the other's `sent` less the user's `seen`: two fields, whatever the thread's size.
  A thread older than its read state has no counts: its messages count as read.
]]

--- The other user's `sent` count at a message's mark, for `user` (one of the match's two, `users`).
local function others_sent_at(mark, users, user)
  if not mark then return 0 end
  local a, b = string.match(mark, '^(%d+):(%d+)$')
  if not a then return 0 end
  return tonumber(user == users[1] and b or a)
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
