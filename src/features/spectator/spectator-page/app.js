// The live spectator page: plain browser JavaScript modules, no framework. Every piece of data is put on
// the page with textContent and never parsed as HTML, so a message body is always shown as text.
import { ACTIVITY_FLUSH_MS, ANNOUNCE_MS, DEEP_LINK, FOLLOW_CHECK_MS, MATCH_PAGE, RENDER_MS, STATS_POLL_MS, actions, state } from './modules/state.js';
import { $, setStatus } from './modules/dom.js';
import { loadMatches, renderMatches } from './modules/matches.js';
import { deselect, followMostActive, loadMessages, renderConversation, select, setFollowing } from './modules/conversation.js';
import { flushActivity } from './modules/activity.js';
import { announce, loadStats, renderStats } from './modules/figures.js';
import { connect } from './modules/live.js';

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

actions.select = select;

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
