// Small helpers for the page: elements, times, numbers, reads of the spectator API.

export const $ = (id) => document.getElementById(id);
export const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = String(text);
  return node;
};

export const themeOf = (themeId) => {
  const n = Number(themeId);
  return Number.isInteger(n) && n >= 1 && n <= 6 ? n : 1;
};
export const themeClass = (themeId) => `theme-${themeOf(themeId)}`;
export const activityAt = (match) => Date.parse(match.last_message ? match.last_message.created_at : match.created_at) || 0;
export const timeOf = (iso) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
};
export const snippet = (text, max = 120) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
export const number = (n) => (typeof n === 'number' ? n.toLocaleString() : '–');
export const flash = (node) => {
  if (!node) return;
  node.classList.remove('fresh');
  void node.offsetWidth; // restart the animation
  node.classList.add('fresh');
  node.addEventListener('animationend', () => node.classList.remove('fresh'), { once: true });
};
/** Stream ids are "<ms>-<seq>": compared as numbers, part by part. */
export const idAfter = (a, b) => {
  const [am, as] = a.split('-').map(Number);
  const [bm, bs] = b.split('-').map(Number);
  return am > bm || (am === bm && as > bs);
};

export async function getJson(path) {
  try {
    const response = await fetch(path, { headers: { accept: 'application/json' }, cache: 'no-store' });
    const body = await response.json().catch(() => null);
    return { status: response.status, body };
  } catch {
    return { status: 0, body: null };
  }
}

export function setStatus(connection, text) {
  document.body.dataset.connection = connection;
  $('status').textContent = text;
}
