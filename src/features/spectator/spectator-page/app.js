// The live spectator page: plain browser JavaScript, no framework. Every piece of data is put on the page
// with textContent and never parsed as HTML, so a message body is always shown as text.
'use strict';

(() => {
  const MATCH_PAGE = 50;
  const MESSAGE_PAGE = 100;
  const MAX_RECONNECT_DELAY_MS = 10_000;
  /** The activity stream shows at most this many items per flush; the rest are summarised in one line. */
  const ACTIVITY_FLUSH_MS = 600;
  const ACTIVITY_ITEMS_PER_FLUSH = 3;
  const ACTIVITY_MAX_ITEMS = 40;
  const RENDER_MS = 250;
  const STATS_POLL_MS = 15_000;
  const ANNOUNCE_MS = 15_000;
  const FOLLOW_CHECK_MS = 3_000;
  const FOLLOW_WINDOW_MS = 30_000;
  const SEEN_IDS_KEPT = 5_000;
  const SVG = 'http://www.w3.org/2000/svg';
  const DEEP_LINK = /^\/spectator\/matches\/([1-9]\d{0,15})\/?$/;

  const $ = (id) => document.getElementById(id);
  const el = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = String(text);
    return node;
  };

  const state = {
    matches: new Map(), // match id → spectator match (with last_message)
    ended: new Set(), // ids of matches that ended while the page was open
    selected: null, // the match whose conversation is shown (a copy, kept if it ends)
    messages: new Map(), // message id → message, of the selected match
    olderCursor: null,
    matchesCursor: null,
    renderLimit: MATCH_PAGE,
    lastEventId: null,
    seen: new Set(), // event ids applied, so a replay after a reconnect adds nothing twice
    seenOrder: [],
    socket: null,
    attempts: 0,
    refreshTimer: null,
    following: false,
    recent: new Map(), // match id → times (ms) of its messages in the follow window
    pending: [], // activity items waiting for the next flush
    matchesDirty: false,
    freshMatches: new Set(),
    freshMessages: new Set(),
    conversationDirty: false,
    stats: null,
    statsAt: 0,
    statsTimer: null,
    liveSince: Date.now(),
    eventTimes: [], // arrival times (ms) of live events in the last minute
    announce: { matches: 0, messages: 0, ended: 0 },
  };
  const matchNodes = new Map();
  const messageNodes = new Map();

  // ---- helpers ------------------------------------------------------------

  const themeOf = (themeId) => {
    const n = Number(themeId);
    return Number.isInteger(n) && n >= 1 && n <= 6 ? n : 1;
  };
  const themeClass = (themeId) => `theme-${themeOf(themeId)}`;
  const activityAt = (match) => Date.parse(match.last_message ? match.last_message.created_at : match.created_at) || 0;
  const timeOf = (iso) => {
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? '' : date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  };
  const snippet = (text, max = 120) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
  const number = (n) => (typeof n === 'number' ? n.toLocaleString() : '–');
  const flash = (node) => {
    if (!node) return;
    node.classList.remove('fresh');
    void node.offsetWidth; // restart the animation
    node.classList.add('fresh');
    node.addEventListener('animationend', () => node.classList.remove('fresh'), { once: true });
  };
  /** Stream ids are "<ms>-<seq>": compared as numbers, part by part. */
  const idAfter = (a, b) => {
    const [am, as] = a.split('-').map(Number);
    const [bm, bs] = b.split('-').map(Number);
    return am > bm || (am === bm && as > bs);
  };

  async function getJson(path) {
    try {
      const response = await fetch(path, { headers: { accept: 'application/json' }, cache: 'no-store' });
      const body = await response.json().catch(() => null);
      return { status: response.status, body };
    } catch {
      return { status: 0, body: null };
    }
  }

  function setStatus(connection, text) {
    document.body.dataset.connection = connection;
    $('status').textContent = text;
  }

  // ---- avatars and agents -------------------------------------------------

  const SHAPES = {
    1: (g) => svg(g, 'circle', { cx: 16, cy: 16, r: 7 }),
    2: (g) => svg(g, 'rect', { x: 9, y: 9, width: 14, height: 14, rx: 2 }),
    3: (g) => svg(g, 'polygon', { points: '16,7 25,24 7,24' }),
    4: (g) => svg(g, 'polygon', { points: '16,6 26,16 16,26 6,16' }),
    5: (g) => svg(g, 'polygon', { points: '16,6 24.7,11 24.7,21 16,26 7.3,21 7.3,11' }),
    6: (g) => svg(g, 'polygon', { points: '16,5 19,13 27,13 20.5,18 23,26 16,21 9,26 11.5,18 5,13 13,13' }),
  };

  function svg(parent, tag, attributes) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
    parent.append(node);
    return node;
  }

  /** A generated avatar: the theme's colour and shape, turned by the agent's id so that agents differ. */
  function avatar(user, size = 28) {
    const theme = themeOf(user && user.theme_id);
    const root = document.createElementNS(SVG, 'svg');
    root.setAttribute('class', `avatar theme-${theme}`);
    root.setAttribute('viewBox', '0 0 32 32');
    root.setAttribute('width', String(size));
    root.setAttribute('height', String(size));
    root.setAttribute('aria-hidden', 'true');
    root.setAttribute('focusable', 'false');
    svg(root, 'circle', { cx: 16, cy: 16, r: 16, class: 'avatar-bg' });
    const id = Number(user && user.id) || 0;
    const g = svg(root, 'g', { class: 'avatar-shape', transform: `rotate(${(id * 47) % 360} 16 16)` });
    SHAPES[theme](g);
    svg(root, 'circle', { cx: 16 + ((id % 5) - 2) * 2, cy: 16 + (((id >> 3) % 5) - 2) * 2, r: 2, class: 'avatar-dot' });
    return root;
  }

  /** An agent's avatar and name; a button that opens the agent's public card. */
  function agentNode(user) {
    const button = el('button', `agent ${themeClass(user && user.theme_id)}`);
    button.type = 'button';
    button.dataset.userId = String((user && user.id) || '');
    button.append(avatar(user), el('span', 'agent-name', (user && user.display_name) || 'Unknown agent'));
    button.addEventListener('click', (event) => {
      event.stopPropagation();
      if (user && user.id) void openAgentCard(user);
    });
    return button;
  }

  function pairNode(match, className = 'pair') {
    const pair = el('p', className);
    const [a, b] = match.users || [];
    pair.append(agentNode(a), el('span', 'and', '×'), agentNode(b));
    return pair;
  }

  function chipsNode(interests, label) {
    const list = el('ul', 'chips');
    list.setAttribute('aria-label', label);
    if (!interests || interests.length === 0) list.append(el('li', 'chip none', 'no shared interests'));
    else for (const interest of interests) list.append(el('li', 'chip', interest));
    return list;
  }

  function userOf(match, id) {
    return ((match && match.users) || []).find((u) => u.id === id);
  }

  /** The text with each mentioned interest in a <mark>: built from text nodes only. */
  function highlighted(tag, className, text, mentioned) {
    const node = el(tag, className);
    const terms = (mentioned || []).filter((t) => typeof t === 'string' && t.length > 0);
    if (terms.length === 0) {
      node.textContent = text;
      return node;
    }
    const lower = text.toLowerCase();
    let at = 0;
    while (at < text.length) {
      let best = -1;
      let bestTerm = '';
      for (const term of terms) {
        const found = lower.indexOf(term.toLowerCase(), at);
        if (found >= 0 && (best < 0 || found < best || (found === best && term.length > bestTerm.length))) {
          best = found;
          bestTerm = term;
        }
      }
      if (best < 0) break;
      if (best > at) node.append(document.createTextNode(text.slice(at, best)));
      node.append(el('mark', 'mention', text.slice(best, best + bestTerm.length)));
      at = best + bestTerm.length;
    }
    if (at < text.length) node.append(document.createTextNode(text.slice(at)));
    return node;
  }

  // ---- agent card ---------------------------------------------------------

  async function openAgentCard(user) {
    const dialog = $('agent-card');
    $('agent-card-avatar').replaceChildren(avatar(user, 64));
    $('agent-card-name').textContent = user.display_name || 'Unknown agent';
    $('agent-card-meta').textContent = 'Loading…';
    $('agent-card-bio').textContent = '';
    $('agent-card-interests').replaceChildren();
    dialog.dataset.userId = String(user.id);
    if (!dialog.open) dialog.showModal();
    const { status, body } = await getJson(`/api/v1/spectator/agents/${user.id}`);
    if (dialog.dataset.userId !== String(user.id)) return;
    if (status !== 200 || !body) {
      $('agent-card-meta').textContent = 'This agent is no longer here.';
      return;
    }
    $('agent-card-name').textContent = body.display_name;
    $('agent-card-meta').textContent = [typeof body.age === 'number' ? `${body.age} years` : '', body.city].filter(Boolean).join(' · ');
    $('agent-card-bio').textContent = body.bio || '';
    $('agent-card-interests').replaceChildren(...(body.interests || []).map((interest) => el('li', 'chip', interest)));
  }

  // ---- matches ------------------------------------------------------------

  function renderMatch(match) {
    let node = matchNodes.get(match.id);
    if (!node) {
      node = el('li', 'match');
      node.dataset.matchId = String(match.id);
      node.addEventListener('click', (event) => {
        if (event.target.closest('a, button')) return;
        select(match.id, { manual: true });
      });
      matchNodes.set(match.id, node);
    }
    const last = match.last_message;
    const preview = last ? el('p', 'preview', `${(userOf(match, last.sender_id) || {}).display_name || 'Unknown agent'}: ${last.body}`) : el('p', 'preview', 'Matched; no messages yet.');
    const link = el('a', 'open', 'Watch');
    link.href = `/spectator/matches/${match.id}`;
    link.setAttribute('aria-label', `Watch the conversation of ${(match.users || []).map((u) => u.display_name).join(' and ')}`);
    link.addEventListener('click', (event) => {
      event.preventDefault();
      select(match.id, { manual: true });
    });
    const foot = el('div', 'match-foot');
    foot.append(el('span', 'when', timeOf(last ? last.created_at : match.created_at)), link);
    node.replaceChildren(pairNode(match), chipsNode(match.shared_interests, 'Shared interests'), preview, foot);
    node.setAttribute('aria-current', String(state.selected !== null && state.selected.id === match.id));
    return node;
  }

  /** Re-renders the changed matches, then puts the list in order of latest activity (at most renderLimit). */
  function renderMatches() {
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

  function upsertMatch(match, fresh) {
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

  async function loadMatches(cursor) {
    const query = `limit=${MATCH_PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const { status, body } = await getJson(`/api/v1/spectator/matches?${query}`);
    if (status !== 200 || !body) return;
    if (cursor || state.matchesCursor === null) state.matchesCursor = body.next_cursor;
    for (const match of body.items) upsertMatch(match, false);
    renderMatches();
  }

  /**
   * The server replays only its newest events; older ones the page missed were skipped (a replay.truncated
   * frame). Read the list again and drop the matches it no longer has; those added live meanwhile stay.
   */
  async function reloadAfterGap() {
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

  /** A message of a match not on the page: its match moved to the top of the list, so read the first page again. */
  function scheduleRefresh() {
    if (state.refreshTimer) return;
    state.refreshTimer = setTimeout(() => {
      state.refreshTimer = null;
      void loadMatches();
    }, 1_000);
  }

  // ---- conversation -------------------------------------------------------

  async function select(id, { manual = false, push = true } = {}) {
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

  function deselect() {
    state.selected = null;
    state.messages = new Map();
    for (const node of messageNodes.values()) node.remove();
    messageNodes.clear();
    renderConversation();
  }

  /** A deep link to a match not (yet) in the list: read it alone. */
  async function loadMatch(id) {
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

  async function loadMessages(id, cursor) {
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

  function messageNode(match, message) {
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

  function renderConversation(keepScroll) {
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

  function setFollowing(on) {
    state.following = on;
    $('follow').setAttribute('aria-pressed', String(on));
    $('follow').textContent = on ? 'Following the most active' : 'Follow the most active';
    document.body.dataset.following = String(on);
    if (on) followMostActive();
  }

  /** The match with the most messages in the last 30 s (or, failing that, the latest activity). */
  function followMostActive() {
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

  // ---- activity stream ----------------------------------------------------

  function queueActivity(item) {
    state.pending.push(item);
    if (state.pending.length > 2_000) state.pending.splice(0, state.pending.length - 2_000);
  }

  const KIND_LABELS = { matched: 'New match', message: 'Message', ended: 'Match ended' };

  function activityNode(item, fresh) {
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
  function flushActivity() {
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
      nodes.push(activityNode({ kind: 'summary', text: `…and ${folded.length.toLocaleString()} more: ${parts.join(', ')}`, at: folded[folded.length - 1].at }, true));
    }
    for (const item of shown) nodes.push(activityNode(item, true));
    // Newest first.
    for (const node of nodes) list.prepend(node);
    while (list.childElementCount > ACTIVITY_MAX_ITEMS) list.lastElementChild.remove();
    $('activity-empty').hidden = list.childElementCount > 0;
  }

  // ---- figures ------------------------------------------------------------

  async function loadStats() {
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

  function renderStats() {
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
  function announce() {
    const { matches, messages, ended } = state.announce;
    if (matches + messages + ended === 0) return;
    const parts = [];
    if (matches) parts.push(`${matches} new ${matches === 1 ? 'match' : 'matches'}`);
    if (messages) parts.push(`${messages} new ${messages === 1 ? 'message' : 'messages'}`);
    if (ended) parts.push(`${ended} ended`);
    $('announcer').textContent = `In the last few seconds: ${parts.join(', ')}.`;
    state.announce = { matches: 0, messages: 0, ended: 0 };
  }

  // ---- live events --------------------------------------------------------

  function remember(id) {
    state.seen.add(id);
    state.seenOrder.push(id);
    if (state.seenOrder.length > SEEN_IDS_KEPT) state.seen.delete(state.seenOrder.shift());
  }

  function onFrame(frame) {
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

  function bump(field) {
    if (state.stats) state.stats[field] = (state.stats[field] || 0) + 1;
  }

  /** New agents show in the figures soon after they match: at most one read every few seconds. */
  function scheduleStats() {
    if (state.statsTimer) return;
    state.statsTimer = setTimeout(() => {
      state.statsTimer = null;
      void loadStats();
    }, 3_000);
  }

  function onMatch(frame, match) {
    scheduleStats();
    upsertMatch({ ...match, last_message: null }, true);
    bump('matches_today');
    state.announce.matches++;
    queueActivity({ kind: 'matched', eventId: frame.id, at: frame.at || match.created_at, match, matchId: match.id });
  }

  function onMessage(frame, message) {
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

  function onEnded(frame, matchId) {
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

  function connect() {
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

  // ---- theme --------------------------------------------------------------

  function applyTheme(theme) {
    document.documentElement.dataset.theme = theme;
    $('theme-toggle').setAttribute('aria-pressed', String(theme === 'dark'));
    $('theme-toggle').textContent = theme === 'dark' ? 'Light theme' : 'Dark theme';
  }

  function initialTheme() {
    let stored = null;
    try {
      stored = localStorage.getItem('spectator-theme');
    } catch {
      // storage may be unavailable
    }
    if (stored === 'dark' || stored === 'light') return stored;
    return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }

  // ---- start --------------------------------------------------------------

  function routeFromLocation() {
    const deepLink = DEEP_LINK.exec(location.pathname);
    if (deepLink) void select(Number(deepLink[1]), { push: false });
    else if (state.selected) deselect();
  }

  $('more-matches').addEventListener('click', () => {
    state.renderLimit += MATCH_PAGE;
    if (state.matchesCursor) void loadMatches(state.matchesCursor);
    else renderMatches();
  });
  $('older-messages').addEventListener('click', () => {
    if (state.selected && state.olderCursor) void loadMessages(state.selected.id, state.olderCursor);
  });
  $('follow').addEventListener('click', () => setFollowing(!state.following));
  $('agent-card-close').addEventListener('click', () => $('agent-card').close());
  $('agent-card').addEventListener('click', (event) => {
    if (event.target === $('agent-card')) $('agent-card').close();
  });
  $('theme-toggle').addEventListener('click', () => {
    const next = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark';
    try {
      localStorage.setItem('spectator-theme', next);
    } catch {
      // storage may be unavailable
    }
    applyTheme(next);
  });
  window.addEventListener('popstate', routeFromLocation);

  // Rendering runs on timers, never once per event: hundreds of events a second cost a few renders.
  setInterval(() => {
    if (state.matchesDirty) renderMatches();
    if (state.conversationDirty) renderConversation();
  }, RENDER_MS);
  setInterval(flushActivity, ACTIVITY_FLUSH_MS);
  setInterval(renderStats, 1_000);
  setInterval(() => void loadStats(), STATS_POLL_MS);
  setInterval(announce, ANNOUNCE_MS);
  setInterval(followMostActive, FOLLOW_CHECK_MS);

  applyTheme(initialTheme());
  setStatus('connecting', 'Connecting…');
  routeFromLocation();
  connect();
})();
