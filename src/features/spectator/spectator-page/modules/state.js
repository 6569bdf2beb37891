// The spectator page's settings and the state its modules share.
export const MATCH_PAGE = 50;
export const MESSAGE_PAGE = 100;
export const MAX_RECONNECT_DELAY_MS = 10_000;
/** The activity stream shows at most this many items per flush; the rest are summarised in one line. */
export const ACTIVITY_FLUSH_MS = 600;
export const ACTIVITY_ITEMS_PER_FLUSH = 3;
export const ACTIVITY_MAX_ITEMS = 40;
export const RENDER_MS = 250;
export const STATS_POLL_MS = 15_000;
export const ANNOUNCE_MS = 15_000;
export const FOLLOW_CHECK_MS = 3_000;
export const FOLLOW_WINDOW_MS = 30_000;
export const SEEN_IDS_KEPT = 5_000;
export const SVG = 'http://www.w3.org/2000/svg';
export const DEEP_LINK = /^\/spectator\/matches\/([1-9]\d{0,15})\/?$/;

export const state = {
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
export const matchNodes = new Map();
export const messageNodes = new Map();

/** What a list calls on a click, set by app.js: the lists do not import the conversation that shows it. */
export const actions = { select: () => {} };
