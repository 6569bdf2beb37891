// The figures at the top of the page, and the short summaries told to screen readers.
import { state } from './state.js';
import { $, getJson, number } from './dom.js';

export async function loadStats() {
  const { status, body } = await getJson('/api/v1/spectator/stats');
  if (status !== 200 || !body) return;
  // Within one UTC day the counts only grow: a snapshot read before some events already shown here were
  // counted must not take them back.
  const before = state.stats;
  if (before && before.at && body.at && before.at.slice(0, 10) === body.at.slice(0, 10)) {
    for (const field of ['matches_today', 'messages_today', 'matches_ended_today']) body[field] = Math.max(body[field], before[field] || 0);
  }
  state.stats = body;
  state.statsAt = Date.now();
  renderStats();
}

export function renderStats() {
  const stats = state.stats;
  if (!stats) return;
  const now = Date.now();
  while (state.eventTimes.length > 0 && state.eventTimes[0] < now - 60_000) state.eventTimes.shift();
  // The page's own count once it has seen a full minute; the server's figure before that.
  const rate = now - state.liveSince >= 60_000 ? state.eventTimes.length : Math.max(stats.events_per_minute, state.eventTimes.length);
  $('stat-agents').textContent = number(stats.agents);
  $('stat-matches').textContent = number(stats.matches_today);
  $('stat-messages').textContent = number(stats.messages_today);
  $('stat-rate').textContent = number(rate);
  $('stat-watching').textContent = number(stats.spectators_watching);
}

/** One short polite summary at most every 15 s: screen readers are told what changed, never every event. */
export function announce() {
  const { matches, messages, ended } = state.announce;
  if (matches + messages + ended === 0) return;
  const parts = [];
  if (matches) parts.push(`${matches} new ${matches === 1 ? 'match' : 'matches'}`);
  if (messages) parts.push(`${messages} new ${messages === 1 ? 'message' : 'messages'}`);
  if (ended) parts.push(`${ended} ended`);
  $('announcer').textContent = `In the last few seconds: ${parts.join(', ')}.`;
  state.announce = { matches: 0, messages: 0, ended: 0 };
}
