--[[
  The checks a change of an account's standing (suspending it, lifting its suspension) makes before it
  writes, in this order: the account exists, its standing is not the one asked for already, and it is still
  the account the caller read.

  standing_change_refused(accounts, suspended, epochs, id, as_read, suspending): nil when the change
  applies, else the script's reply {status, epoch}: {-1, 0} when there is no such account, {2, its current
  epoch} when it is suspended already (`suspending`) or not suspended (lifting), {0, 0} when it changed
  meanwhile. `accounts`, `suspended`, `epochs`: the hashes of the accounts, the suspensions and the
  credentials epochs.
]]
--- @include "next_epoch"
--- @include "account_as_read"
local function standing_change_refused(accounts, suspended, epochs, id, as_read, suspending)
  local found = account_as_read(accounts, id, as_read)
  if found == -1 then
    return {-1, 0}
  end
  if (redis.call('HEXISTS', suspended, id) == 1) == suspending then
    return {2, current_epoch(epochs, id)}
  end
  if found == 0 then
    return {0, 0}
  end
  return nil
end
