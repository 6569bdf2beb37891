// The conversation of the selected match, and the mode that follows the most active one.
import { FOLLOW_WINDOW_MS, MESSAGE_PAGE, matchNodes, messageNodes, state } from './state.js';
import { $, activityAt, el, flash, getJson, themeClass, timeOf } from './dom.js';
import { avatar, chipsNode, highlighted, pairNode, userOf } from './agents.js';
import { renderMatches, upsertMatch } from './matches.js';

export async function select(id, { manual = false, push = true } = {}) {
  if (manual && state.following) setFollowing(false);
  if (state.selected && state.selected.id === id && !state.ended.has(id)) return;
  const known = state.matches.get(id);
  state.selected = known ? { ...known } : { id };
  state.messages = new Map();
  state.olderCursor = null;
  for (const node of messageNodes.values()) node.remove();
  messageNodes.clear();
  for (const [matchId, node] of matchNodes) node.setAttribute('aria-current', String(matchId === id));
  if (push && location.pathname !== `/spectator/matches/${id}`) history.pushState({ match: id }, '', `/spectator/matches/${id}`);
  renderConversation();
  if (!known) await loadMatch(id);
  await loadMessages(id);
}

export function deselect() {
  state.selected = null;
  state.messages = new Map();
  for (const node of messageNodes.values()) node.remove();
  messageNodes.clear();
  renderConversation();
}

/** A deep link to a match not (yet) in the list: read it alone. */
export async function loadMatch(id) {
  const { status, body } = await getJson(`/api/v1/spectator/matches/${id}`);
  if (!state.selected || state.selected.id !== id) return;
  if (status === 404) {
    state.ended.add(id);
    renderConversation();
    return;
  }
  if (status === 200 && body) {
    upsertMatch(body, false);
    state.selected = { ...state.matches.get(id) };
    renderMatches();
    renderConversation();
  }
}

export async function loadMessages(id, cursor) {
  const query = `limit=${MESSAGE_PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
  const { status, body } = await getJson(`/api/v1/spectator/matches/${id}/messages?${query}`);
  if (!state.selected || state.selected.id !== id) return;
  if (status === 404) {
    state.ended.add(id);
    state.messages = new Map();
  }
  if (status === 200 && body) {
    for (const message of body.items) state.messages.set(message.id, message);
    if (cursor || state.olderCursor === null) state.olderCursor = body.next_cursor;
  }
  renderConversation(Boolean(cursor));
}

export function messageNode(match, message) {
  const sender = userOf(match, message.sender_id);
  const [, b] = match.users || [];
  const item = el('li', `message ${themeClass(sender && sender.theme_id)}${b && message.sender_id === b.id ? ' right' : ''}`);
  item.dataset.messageId = String(message.id);
  const head = el('div', 'message-head');
  head.append(avatar(sender, 20), el('span', 'who', sender ? sender.display_name : 'Unknown agent'), el('span', 'when', timeOf(message.created_at)));
  item.append(head, highlighted('p', 'body', message.body, message.shared_interests_mentioned));
  if (message.shared_interests_mentioned && message.shared_interests_mentioned.length > 0) {
    item.append(el('p', 'mentioned', `mentions: ${message.shared_interests_mentioned.join(', ')}`));
  }
  return item;
}

export function renderConversation(keepScroll) {
  state.conversationDirty = false;
  const match = state.selected;
  const ended = Boolean(match && state.ended.has(match.id));
  $('conversation-empty').hidden = match !== null;
  $('conversation-head').hidden = match === null || !match.users;
  $('conversation-ended').hidden = !ended;
  $('older-messages').hidden = !state.olderCursor || ended;
  const list = $('message-list');
  if (!match || ended) {
    // An ended match's thread is removed: its messages are no longer public.
    for (const node of messageNodes.values()) node.remove();
    messageNodes.clear();
    state.freshMessages.clear();
    if (ended) state.messages = new Map();
    return;
  }
  if (match.users) {
    $('conversation-pair').replaceChildren(...pairNode(match).childNodes);
    $('conversation-interests').replaceChildren(...chipsNode(match.shared_interests, 'Shared interests').childNodes);
  }
  const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 80;
  const ids = [...state.messages.keys()].sort((x, y) => x - y);
  let place = list.firstElementChild;
  for (const id of ids) {
    let node = messageNodes.get(id);
    if (!node) {
      if (!match.users) continue;
      node = messageNode(match, state.messages.get(id));
      messageNodes.set(id, node);
      if (state.freshMessages.has(id)) flash(node);
    }
    if (node === place) place = place.nextElementSibling;
    else list.insertBefore(node, place);
  }
  state.freshMessages.clear();
  if (!keepScroll && nearBottom) list.scrollTop = list.scrollHeight;
  else if (!keepScroll && list.dataset.matchId !== String(match.id)) list.scrollTop = list.scrollHeight;
  list.dataset.matchId = String(match.id);
}

// ---- follow mode --------------------------------------------------------

export function setFollowing(on) {
  state.following = on;
  $('follow').setAttribute('aria-pressed', String(on));
  $('follow').textContent = on ? 'Following the most active' : 'Follow the most active';
  document.body.dataset.following = String(on);
  if (on) followMostActive();
}

/** The match with the most messages in the last 30 s (or, failing that, the latest activity). */
export function followMostActive() {
  if (!state.following) return;
  const since = Date.now() - FOLLOW_WINDOW_MS;
  let best = null;
  let bestCount = 0;
  for (const [id, times] of state.recent) {
    while (times.length > 0 && times[0] < since) times.shift();
    if (times.length === 0) state.recent.delete(id);
    else if (times.length > bestCount && !state.ended.has(id)) {
      best = id;
      bestCount = times.length;
    }
  }
  if (best === null) {
    const latest = [...state.matches.values()].sort((a, b) => activityAt(b) - activityAt(a))[0];
    best = latest ? latest.id : null;
  }
  if (best === null) return;
  const current = state.selected && !state.ended.has(state.selected.id) ? state.selected.id : null;
  const currentCount = current !== null ? (state.recent.get(current) || []).length : 0;
  if (current === null || (best !== current && bestCount > currentCount)) void select(best);
}
