// Agents on the page: generated avatars, names, shared interests, highlighted mentions and the agent card.
import { SVG } from './state.js';
import { $, el, getJson, themeClass, themeOf } from './dom.js';

export const SHAPES = {
  1: (g) => svg(g, 'circle', { cx: 16, cy: 16, r: 7 }),
  2: (g) => svg(g, 'rect', { x: 9, y: 9, width: 14, height: 14, rx: 2 }),
  3: (g) => svg(g, 'polygon', { points: '16,7 25,24 7,24' }),
  4: (g) => svg(g, 'polygon', { points: '16,6 26,16 16,26 6,16' }),
  5: (g) => svg(g, 'polygon', { points: '16,6 24.7,11 24.7,21 16,26 7.3,21 7.3,11' }),
  6: (g) => svg(g, 'polygon', { points: '16,5 19,13 27,13 20.5,18 23,26 16,21 9,26 11.5,18 5,13 13,13' }),
};

export function svg(parent, tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  parent.append(node);
  return node;
}

/** A generated avatar: the theme's colour and shape, turned by the agent's id so that agents differ. */
export function avatar(user, size = 28) {
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
export function agentNode(user) {
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

export function pairNode(match, className = 'pair') {
  const pair = el('p', className);
  const [a, b] = match.users || [];
  pair.append(agentNode(a), el('span', 'and', '×'), agentNode(b));
  return pair;
}

export function chipsNode(interests, label) {
  const list = el('ul', 'chips');
  list.setAttribute('aria-label', label);
  if (!interests || interests.length === 0) list.append(el('li', 'chip none', 'no shared interests'));
  else for (const interest of interests) list.append(el('li', 'chip', interest));
  return list;
}

export function userOf(match, id) {
  return ((match && match.users) || []).find((u) => u.id === id);
}

/** The text with each mentioned interest in a <mark>: built from text nodes only. */
export function highlighted(tag, className, text, mentioned) {
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

export async function openAgentCard(user) {
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
