// The activity stream: the newest few events, the rest folded into one line.
import { ACTIVITY_ITEMS_PER_FLUSH, ACTIVITY_MAX_ITEMS, state } from './state.js';
import { $, el, snippet, timeOf } from './dom.js';
import { agentNode, chipsNode, highlighted, pairNode, userOf } from './agents.js';
import { select } from './conversation.js';

export function queueActivity(item) {
  state.pending.push(item);
  if (state.pending.length > 2_000) state.pending.splice(0, state.pending.length - 2_000);
}

export const KIND_LABELS = { matched: 'New match', message: 'Message', ended: 'Match ended' };

export function activityNode(item, fresh) {
  const li = el('li', `activity-item kind-${item.kind}`);
  if (item.eventId) li.dataset.eventId = item.eventId;
  const top = el('div', 'activity-top');
  top.append(el('span', 'kind', item.kind === 'summary' ? 'Busy' : KIND_LABELS[item.kind]), el('span', 'when', timeOf(item.at)));
  li.append(top);
  const match = item.match;
  if (item.kind === 'summary') {
    li.append(el('p', 'summary-text', item.text));
  } else if (item.kind === 'matched' && match) {
    li.append(pairNode(match, 'pair compact'), chipsNode(match.shared_interests, 'Shared interests'));
  } else if (item.kind === 'message') {
    const sender = userOf(match, item.message.sender_id);
    const other = ((match && match.users) || []).find((u) => u.id !== item.message.sender_id);
    const head = el('p', 'pair compact');
    head.append(sender ? agentNode(sender) : el('span', 'agent', 'An agent'));
    if (other) head.append(el('span', 'and', 'to'), agentNode(other));
    li.append(head, highlighted('p', 'snippet', snippet(item.message.body), item.message.shared_interests_mentioned));
    if (match && match.shared_interests && match.shared_interests.length > 0) li.append(chipsNode(match.shared_interests, 'Shared interests'));
  } else if (item.kind === 'ended') {
    if (match) li.append(pairNode(match, 'pair compact'));
    else li.append(el('p', 'summary-text', 'A match ended.'));
  }
  if (item.matchId && (item.kind === 'matched' || item.kind === 'message')) {
    const link = el('a', 'open', 'Watch');
    link.href = `/spectator/matches/${item.matchId}`;
    link.addEventListener('click', (event) => {
      event.preventDefault();
      select(item.matchId, { manual: true });
    });
    top.insertBefore(link, top.lastChild);
  }
  if (fresh) li.classList.add('fresh');
  return li;
}

/** Shows the newest few queued items and folds the rest into one line, so the stream stays readable. */
export function flushActivity() {
  if (state.pending.length === 0) return;
  const items = state.pending;
  state.pending = [];
  const shown = items.slice(-ACTIVITY_ITEMS_PER_FLUSH);
  const folded = items.slice(0, items.length - shown.length);
  const list = $('activity-list');
  const nodes = [];
  if (folded.length > 0) {
    const count = (kind) => folded.filter((item) => item.kind === kind).length;
    const parts = [
      [count('message'), 'message', 'messages'],
      [count('matched'), 'new match', 'new matches'],
      [count('ended'), 'ended match', 'ended matches'],
    ]
      .filter(([n]) => n > 0)
      .map(([n, one, many]) => `${n.toLocaleString()} ${n === 1 ? one : many}`);
    nodes.push(
      activityNode({ kind: 'summary', text: `…and ${folded.length.toLocaleString()} more: ${parts.join(', ')}`, at: folded[folded.length - 1].at }, true),
    );
  }
  for (const item of shown) nodes.push(activityNode(item, true));
  // Newest first.
  for (const node of nodes) list.prepend(node);
  while (list.childElementCount > ACTIVITY_MAX_ITEMS) list.lastElementChild.remove();
  $('activity-empty').hidden = list.childElementCount > 0;
}
