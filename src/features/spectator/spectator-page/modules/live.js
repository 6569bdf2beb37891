// The live spectator stream: frames applied once each, reconnects resuming with since.
import { MATCH_PAGE, MAX_RECONNECT_DELAY_MS, SEEN_IDS_KEPT, state } from './state.js';
import { getJson, idAfter, setStatus } from './dom.js';
import { loadMatches, renderMatches, scheduleRefresh, upsertMatch } from './matches.js';
import { followMostActive, loadMessages } from './conversation.js';
import { queueActivity } from './activity.js';
import { loadStats } from './figures.js';

/**
 * The server replays only its newest events; older ones the page missed were skipped (a replay.truncated
 * frame). Read the list again and drop the matches it no longer has; those added live meanwhile stay.
 */
export async function reloadAfterGap() {
  const stale = new Set(state.matches.keys());
  const { status, body } = await getJson(`/api/v1/spectator/matches?limit=${Math.max(MATCH_PAGE, state.renderLimit)}`);
  if (status !== 200 || !body) return;
  for (const match of body.items) stale.delete(match.id);
  for (const id of stale) state.matches.delete(id);
  state.matchesCursor = body.next_cursor;
  for (const match of body.items) upsertMatch(match, false);
  renderMatches();
  if (state.selected && !state.ended.has(state.selected.id)) void loadMessages(state.selected.id);
  void loadStats();
}

export function remember(id) {
  state.seen.add(id);
  state.seenOrder.push(id);
  if (state.seenOrder.length > SEEN_IDS_KEPT) state.seen.delete(state.seenOrder.shift());
}

export function onFrame(frame) {
  if (frame && frame.type === 'replay.truncated') return void reloadAfterGap();
  if (!frame || typeof frame.id !== 'string') return;
  if (state.seen.has(frame.id) || (state.lastEventId !== null && !idAfter(frame.id, state.lastEventId))) return;
  remember(frame.id);
  state.lastEventId = frame.id;
  state.eventTimes.push(Date.now());
  const data = frame.data || {};
  if (frame.type === 'match.created' && data.match) onMatch(frame, data.match);
  else if (frame.type === 'message.created' && data.message) onMessage(frame, data.message);
  else if (frame.type === 'match.ended') onEnded(frame, data.match_id);
}

export function bump(field) {
  if (state.stats) state.stats[field] = (state.stats[field] || 0) + 1;
}

/** New agents show in the figures soon after they match: at most one read every few seconds. */
export function scheduleStats() {
  if (state.statsTimer) return;
  state.statsTimer = setTimeout(() => {
    state.statsTimer = null;
    void loadStats();
  }, 3_000);
}

export function onMatch(frame, match) {
  scheduleStats();
  upsertMatch({ ...match, last_message: null }, true);
  bump('matches_today');
  state.announce.matches++;
  queueActivity({ kind: 'matched', eventId: frame.id, at: frame.at || match.created_at, match, matchId: match.id });
}

export function onMessage(frame, message) {
  const match = state.matches.get(message.match_id);
  if (match) {
    if (!match.last_message || message.id > match.last_message.id) match.last_message = message;
    match.dirty = true;
    state.matchesDirty = true;
    state.freshMatches.add(match.id);
  } else if (!state.ended.has(message.match_id)) {
    scheduleRefresh();
  }
  const times = state.recent.get(message.match_id) || [];
  times.push(Date.now());
  state.recent.set(message.match_id, times);
  bump('messages_today');
  state.announce.messages++;
  queueActivity({ kind: 'message', eventId: frame.id, at: message.created_at, match, message, matchId: message.match_id });
  if (state.selected && state.selected.id === message.match_id && !state.messages.has(message.id) && !state.ended.has(message.match_id)) {
    state.messages.set(message.id, message);
    state.freshMessages.add(message.id);
    state.conversationDirty = true;
  }
}

export function onEnded(frame, matchId) {
  const match = state.matches.get(matchId) || (state.selected && state.selected.id === matchId ? state.selected : null);
  state.ended.add(matchId);
  state.matches.delete(matchId);
  state.recent.delete(matchId);
  state.matchesDirty = true;
  state.announce.ended++;
  bump('matches_ended_today');
  queueActivity({ kind: 'ended', eventId: frame.id, at: frame.at, match: match && match.users ? match : null, matchId });
  if (state.selected && state.selected.id === matchId) {
    state.conversationDirty = true;
    if (state.following) setTimeout(followMostActive, 1_500);
  }
}

export function connect() {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const resuming = state.lastEventId !== null;
  const since = resuming ? `?since=${encodeURIComponent(state.lastEventId)}` : '';
  const socket = new WebSocket(`${scheme}//${location.host}/api/v1/spectator/stream${since}`);
  state.socket = socket;
  socket.addEventListener('open', () => {
    state.attempts = 0;
    setStatus('live', 'Live');
    // Without an event id to resume from, read the current state once live events are flowing;
    // both are merged by id, so an overlap does no harm.
    if (!resuming) {
      void loadMatches();
      void loadStats();
      if (state.selected) void loadMessages(state.selected.id);
    }
  });
  socket.addEventListener('message', (event) => {
    let frame;
    try {
      frame = JSON.parse(event.data);
    } catch {
      return; // a frame that is not JSON is ignored
    }
    onFrame(frame);
  });
  socket.addEventListener('close', (event) => {
    if (state.socket !== socket) return;
    const delay = event.code === 4008 ? 0 : Math.min(MAX_RECONNECT_DELAY_MS, 500 * 2 ** state.attempts) + Math.random() * 300;
    state.attempts++;
    setStatus('reconnecting', event.code === 4008 ? 'Catching up…' : 'Reconnecting…');
    setTimeout(connect, delay);
  });
}
