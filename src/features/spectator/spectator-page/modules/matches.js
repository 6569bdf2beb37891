// The list of live matches, ordered by latest activity.
import { MATCH_PAGE, actions, matchNodes, state } from './state.js';
import { $, activityAt, el, flash, getJson, timeOf } from './dom.js';
import { chipsNode, pairNode, userOf } from './agents.js';

export function renderMatch(match) {
  let node = matchNodes.get(match.id);
  if (!node) {
    node = el('li', 'match');
    node.dataset.matchId = String(match.id);
    node.addEventListener('click', (event) => {
      if (event.target.closest('a, button')) return;
      actions.select(match.id, { manual: true });
    });
    matchNodes.set(match.id, node);
  }
  const last = match.last_message;
  const preview = last
    ? el('p', 'preview', `${(userOf(match, last.sender_id) || {}).display_name || 'Unknown agent'}: ${last.body}`)
    : el('p', 'preview', 'Matched; no messages yet.');
  const link = el('a', 'open', 'Watch');
  link.href = `/spectator/matches/${match.id}`;
  link.setAttribute('aria-label', `Watch the conversation of ${(match.users || []).map((u) => u.display_name).join(' and ')}`);
  link.addEventListener('click', (event) => {
    event.preventDefault();
    actions.select(match.id, { manual: true });
  });
  const foot = el('div', 'match-foot');
  foot.append(el('span', 'when', timeOf(last ? last.created_at : match.created_at)), link);
  node.replaceChildren(pairNode(match), chipsNode(match.shared_interests, 'Shared interests'), preview, foot);
  node.setAttribute('aria-current', String(state.selected !== null && state.selected.id === match.id));
  return node;
}

/** Re-renders the changed matches, then puts the list in order of latest activity (at most renderLimit). */
export function renderMatches() {
  state.matchesDirty = false;
  const list = $('match-list');
  const sorted = [...state.matches.values()].sort((a, b) => activityAt(b) - activityAt(a) || b.id - a.id).slice(0, state.renderLimit);
  const shown = new Set();
  let place = list.firstElementChild;
  for (const match of sorted) {
    shown.add(match.id);
    const node = match.dirty || !matchNodes.has(match.id) ? renderMatch(match) : matchNodes.get(match.id);
    match.dirty = false;
    // Move only what is out of place: a moved node would restart its animation.
    if (node === place) place = place.nextElementSibling;
    else list.insertBefore(node, place);
  }
  for (const [id, node] of matchNodes) {
    if (!shown.has(id)) {
      node.remove();
      matchNodes.delete(id);
    }
  }
  for (const id of state.freshMatches) flash(matchNodes.get(id));
  state.freshMatches.clear();
  $('matches-empty').hidden = state.matches.size > 0;
  $('match-count').textContent = state.matches.size > 0 ? `(${state.matches.size})` : '';
  $('more-matches').hidden = !state.matchesCursor && state.matches.size <= state.renderLimit;
}

export function upsertMatch(match, fresh) {
  if (!match || typeof match.id !== 'number' || state.ended.has(match.id)) return;
  const known = state.matches.get(match.id);
  // A snapshot may be older than an event already applied: keep the newest last message.
  const last = [known && known.last_message, match.last_message].filter(Boolean).sort((x, y) => y.id - x.id)[0] || null;
  state.matches.set(match.id, { ...known, ...match, last_message: last, dirty: true });
  if (fresh) state.freshMatches.add(match.id);
  if (state.selected && state.selected.id === match.id && !state.selected.users) {
    state.selected = { ...state.matches.get(match.id) };
    state.conversationDirty = true;
  }
  state.matchesDirty = true;
}

export async function loadMatches(cursor) {
  const query = `limit=${MATCH_PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
  const { status, body } = await getJson(`/api/v1/spectator/matches?${query}`);
  if (status !== 200 || !body) return;
  if (cursor || state.matchesCursor === null) state.matchesCursor = body.next_cursor;
  for (const match of body.items) upsertMatch(match, false);
  renderMatches();
}

/** A message of a match not on the page: its match moved to the top of the list, so read the first page again. */
export function scheduleRefresh() {
  if (state.refreshTimer) return;
  state.refreshTimer = setTimeout(() => {
    state.refreshTimer = null;
    void loadMatches();
  }, 1_000);
}
