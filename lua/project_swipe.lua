#!lua flags=allow-oom
--[[
  Applies a recorded swipe to the swiper's own keys: the target joins the swiper's swipe list (which keeps
  it out of the swiper's feed from now on) and leaves the swiper's feed. Idempotent: a follow-up step of
  lua/record_swipe.lua, whose pair state is the record of the swipe itself.

  KEYS[1] am:<pool>:{shard}:swipes:<from>   target id -> kind
  KEYS[2] am:<pool>:{shard}:feed:<from>     the target is removed from it
  ARGV[1] target id
  ARGV[2] kind

  Returns 1 when the target was in the feed (the feed now has room), else 0.

  Flagged allow-oom: it completes a swipe Redis already took (the pair's state holds it), so a full Redis
  delays no feed; one call writes one hash field and removes one feed entry.

  Slot: one (hash of the swiper's shard tag)
]]
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return redis.call('ZREM', KEYS[2], ARGV[1])
