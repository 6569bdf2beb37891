// The live spectator page: plain browser JavaScript, no framework. Every piece of data is put on the page
// with textContent and never parsed as HTML, so a message body is always shown as text.
'use strict';

(() => {
  const MATCH_PAGE = 50;
  const MESSAGE_PAGE = 100;
  const MAX_RECONNECT_DELAY_MS = 10_000;

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
    lastEventId: null,
    socket: null,
    attempts: 0,
    refreshTimer: null,
  };
  const matchNodes = new Map();

  // ---- helpers ------------------------------------------------------------

  const themeClass = (themeId) => {
    const n = Number(themeId);
    return Number.isInteger(n) && n >= 1 && n <= 6 ? `theme-${n}` : 'theme-1';
  };
  const activity = (match) => Date.parse(match.last_message ? match.last_message.created_at : match.created_at) || 0;
  const timeOf = (iso) => {
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? '' : date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  };
  const flash = (node) => {
    if (!node) return;
    node.classList.remove('fresh');
    void node.offsetWidth; // restart the animation
    node.classList.add('fresh');
    node.addEventListener('animationend', () => node.classList.remove('fresh'), { once: true });
  };

  async function getJson(path) {
    const response = await fetch(path, { headers: { accept: 'application/json' }, cache: 'no-store' });
    const body = await response.json().catch(() => null);
    return { status: response.status, body };
  }

  function setStatus(connection, text) {
    document.body.dataset.connection = connection;
    $('status').textContent = text;
  }

  // ---- rendering ----------------------------------------------------------

  function agentNode(user) {
    return el('span', `agent ${themeClass(user && user.theme_id)}`, (user && user.display_name) || 'Unknown agent');
  }

  function pairNode(match) {
    const pair = el('p', 'pair');
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

  function senderName(match, senderId) {
    const user = (match.users || []).find((u) => u.id === senderId);
    return user ? user.display_name : 'Unknown agent';
  }

  function renderMatch(match) {
    let node = matchNodes.get(match.id);
    if (!node) {
      node = el('li', 'match');
      node.tabIndex = 0;
      node.setAttribute('role', 'button');
      node.dataset.matchId = String(match.id);
      node.addEventListener('click', () => select(match.id));
      node.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          select(match.id);
        }
      });
      matchNodes.set(match.id, node);
    }
    const preview = match.last_message
      ? el('p', 'preview', `${senderName(match, match.last_message.sender_id)}: ${match.last_message.body}`)
      : el('p', 'preview', 'Matched; no messages yet.');
    const when = el('span', 'when', timeOf(match.last_message ? match.last_message.created_at : match.created_at));
    node.replaceChildren(pairNode(match), chipsNode(match.shared_interests, 'Shared interests'), preview, when);
    node.setAttribute('aria-selected', String(state.selected !== null && state.selected.id === match.id));
    return node;
  }

  /** Re-renders `changedId` (or every match), then puts the list in order of latest activity. */
  function renderMatches(changedId, fresh) {
    const list = $('match-list');
    const sorted = [...state.matches.values()].sort((a, b) => activity(b) - activity(a) || b.id - a.id);
    let place = list.firstElementChild;
    for (const match of sorted) {
      const node = changedId === undefined || changedId === match.id || !matchNodes.has(match.id) ? renderMatch(match) : matchNodes.get(match.id);
      // Move only what is out of place: a moved node would restart its animation.
      if (node === place) place = place.nextElementSibling;
      else list.insertBefore(node, place);
    }
    for (const [id, node] of matchNodes) {
      if (!state.matches.has(id)) {
        node.remove();
        matchNodes.delete(id);
      }
    }
    if (fresh && changedId !== undefined) flash(matchNodes.get(changedId));
    $('matches-empty').hidden = state.matches.size > 0;
    $('match-count').textContent = state.matches.size > 0 ? `(${state.matches.size})` : '';
    $('more-matches').hidden = !state.matchesCursor;
  }

  function renderConversation(freshId, keepScroll) {
    const match = state.selected;
    $('conversation-empty').hidden = match !== null;
    $('conversation-head').hidden = match === null;
    $('conversation-ended').hidden = !(match && state.ended.has(match.id));
    $('older-messages').hidden = !state.olderCursor;
    const list = $('message-list');
    if (!match) {
      list.replaceChildren();
      return;
    }
    const pair = $('conversation-pair');
    const [a, b] = match.users || [];
    pair.replaceChildren(agentNode(a), el('span', 'and', '×'), agentNode(b));
    $('conversation-interests').replaceChildren(...chipsNode(match.shared_interests, 'Shared interests').childNodes);

    const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 80;
    const messages = [...state.messages.values()].sort((x, y) => x.id - y.id);
    list.replaceChildren(
      ...messages.map((message) => {
        const sender = (match.users || []).find((u) => u.id === message.sender_id);
        const item = el('li', `message ${themeClass(sender && sender.theme_id)}${b && message.sender_id === b.id ? ' right' : ''}`);
        item.dataset.messageId = String(message.id);
        const head = el('div');
        head.append(el('span', 'who', sender ? sender.display_name : 'Unknown agent'), el('span', 'when', timeOf(message.created_at)));
        item.append(head, el('p', 'body', message.body));
        if (message.shared_interests_mentioned && message.shared_interests_mentioned.length > 0) {
          item.append(el('p', 'mentioned', `mentions: ${message.shared_interests_mentioned.join(', ')}`));
        }
        if (message.id === freshId) flash(item);
        return item;
      }),
    );
    if (!keepScroll && (nearBottom || freshId === undefined)) list.scrollTop = list.scrollHeight;
  }

  // ---- data ---------------------------------------------------------------

  function upsertMatch(match, fresh) {
    if (!match || typeof match.id !== 'number' || state.ended.has(match.id)) return;
    const known = state.matches.get(match.id);
    // A snapshot may be older than an event already applied: keep the newest last message.
    const last = [known && known.last_message, match.last_message].filter(Boolean).sort((x, y) => y.id - x.id)[0] || null;
    state.matches.set(match.id, { ...known, ...match, last_message: last });
    renderMatches(match.id, fresh);
  }

  async function loadMatches(cursor) {
    const query = `limit=${MATCH_PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const { status, body } = await getJson(`/api/v1/spectator/matches?${query}`).catch(() => ({ status: 0, body: null }));
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
    const { status, body } = await getJson(`/api/v1/spectator/matches?limit=${MATCH_PAGE}`).catch(() => ({ status: 0, body: null }));
    if (status !== 200 || !body) return;
    for (const match of body.items) stale.delete(match.id);
    for (const id of stale) state.matches.delete(id);
    state.matchesCursor = body.next_cursor;
    for (const match of body.items) upsertMatch(match, false);
    renderMatches();
    if (state.selected && !state.ended.has(state.selected.id)) void loadMessages(state.selected.id);
  }

  /** A message of a match not on the page: its match moved to the top of the list, so read the first page again. */
  function scheduleRefresh() {
    if (state.refreshTimer) return;
    state.refreshTimer = setTimeout(() => {
      state.refreshTimer = null;
      void loadMatches();
    }, 300);
  }

  async function select(id) {
    const match = state.matches.get(id);
    if (!match) return;
    state.selected = { ...match };
    state.messages = new Map();
    state.olderCursor = null;
    for (const [matchId, node] of matchNodes) node.setAttribute('aria-selected', String(matchId === id));
    renderConversation();
    await loadMessages(id);
  }

  async function loadMessages(id, cursor) {
    const query = `limit=${MESSAGE_PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const { status, body } = await getJson(`/api/v1/spectator/matches/${id}/messages?${query}`).catch(() => ({ status: 0, body: null }));
    if (!state.selected || state.selected.id !== id) return;
    if (status === 404) state.ended.add(id);
    if (status === 200 && body) {
      for (const message of body.items) state.messages.set(message.id, message);
      state.olderCursor = body.next_cursor;
    }
    renderConversation(undefined, Boolean(cursor));
  }

  // ---- live events --------------------------------------------------------

  function onFrame(frame) {
    if (frame && frame.type === 'replay.truncated') return void reloadAfterGap();
    if (!frame || typeof frame.id !== 'string') return;
    state.lastEventId = frame.id;
    const data = frame.data || {};
    if (frame.type === 'match.created' && data.match) upsertMatch({ ...data.match, last_message: null }, true);
    else if (frame.type === 'message.created' && data.message) onMessage(data.message);
    else if (frame.type === 'match.ended') onEnded(data.match_id);
  }

  function onMessage(message) {
    const match = state.matches.get(message.match_id);
    if (match) {
      if (!match.last_message || message.id > match.last_message.id) match.last_message = message;
      renderMatches(match.id, true);
    } else {
      scheduleRefresh();
    }
    if (state.selected && state.selected.id === message.match_id && !state.messages.has(message.id)) {
      state.messages.set(message.id, message);
      renderConversation(message.id);
    }
  }

  function onEnded(matchId) {
    state.ended.add(matchId);
    state.matches.delete(matchId);
    renderMatches();
    if (state.selected && state.selected.id === matchId) renderConversation();
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
        if (state.selected) void loadMessages(state.selected.id);
      }
    });
    socket.addEventListener('message', (event) => {
      try {
        onFrame(JSON.parse(event.data));
      } catch {
        // a frame that is not JSON is ignored
      }
    });
    socket.addEventListener('close', (event) => {
      if (state.socket !== socket) return;
      const delay = event.code === 4008 ? 0 : Math.min(MAX_RECONNECT_DELAY_MS, 500 * 2 ** state.attempts) + Math.random() * 300;
      state.attempts++;
      setStatus('reconnecting', event.code === 4008 ? 'Catching up…' : 'Reconnecting…');
      setTimeout(connect, delay);
    });
  }

  $('more-matches').addEventListener('click', () => void loadMatches(state.matchesCursor));
  $('older-messages').addEventListener('click', () => {
    if (state.selected && state.olderCursor) void loadMessages(state.selected.id, state.olderCursor);
  });

  setStatus('connecting', 'Connecting…');
  connect();
})();
