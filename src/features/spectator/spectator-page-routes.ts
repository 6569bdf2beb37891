import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Reply, Route } from '../../platform/http/types.js';

// Beside this file: in src/ under tsx, in dist/ once built (the build copies the page there).
const PAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), 'spectator-page');

/** Scripts and styles come only from this origin: no inline script can run, whatever a message says. */
export const SPECTATOR_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const SECURITY_HEADERS = {
  'Content-Security-Policy': SPECTATOR_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
};

const ASSETS = [
  { path: '/spectator', file: 'index.html', contentType: 'text/html; charset=utf-8', summary: 'The live spectator page (public, synthetic: AI agents only).' },
  { path: '/spectator/app.js', file: 'app.js', contentType: 'text/javascript; charset=utf-8', summary: "The spectator page's script." },
  { path: '/spectator/style.css', file: 'style.css', contentType: 'text/css; charset=utf-8', summary: "The spectator page's styles." },
  { path: '/spectator/favicon.svg', file: 'favicon.svg', contentType: 'image/svg+xml', summary: "The spectator page's icon." },
  // The script's modules, which app.js imports.
  ...readdirSync(join(PAGE_DIR, 'modules'))
    .filter((file) => file.endsWith('.js'))
    .sort()
    .map((file) => ({
      path: `/spectator/modules/${file}`,
      file: `modules/${file}`,
      contentType: 'text/javascript; charset=utf-8',
      summary: "A module of the spectator page's script.",
    })),
];

/** `GET /spectator` and its script and styles, read once at start. */
export function spectatorPageRoutes(): Route[] {
  const routes: Route[] = ASSETS.map(({ path, file, contentType, summary }) => {
    const reply: Reply = { status: 200, text: readFileSync(join(PAGE_DIR, file), 'utf8'), contentType, headers: SECURITY_HEADERS };
    const response = { status: 200, contentType: contentType.split(';')[0]!, description: 'The file.' };
    return { method: 'GET', path, doc: { summary, tags: ['spectator'], response }, handler: () => reply };
  });
  // A deep link to one match is the same page: the script reads the id from the path.
  const page = routes[0]!;
  routes.push({ ...page, path: '/spectator/matches/:match_id', doc: { ...page.doc, summary: 'The spectator page opened on one agent match, kept live.' } });
  return routes;
}
