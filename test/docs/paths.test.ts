import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skillGuide } from '../../src/features/operations/skill-guide.js';

/**
 * Every source path a document names exists: in README.md, docs/*.md, bench/README.md and the guide the
 * service serves (/skill.md), each backticked or linked token that looks like a repository path (`src/…`,
 * `test/…`, `scripts/…`, `bench/…`, `docs/…`, `clients/…`, `.ci/…`) or a source file (`*.ts`, `*.lua`,
 * `*.mjs`, `*.cjs`) names a file or directory of the repository. A bare file name exists somewhere in it; a
 * path that starts elsewhere (`swipes/swipe-routes.ts`, relative to `src/features/`) ends some path of it;
 * `*` and `<name>` stand for any part of one name (`*-routes.ts`) and must match at least one. Paths under
 * what .gitignore keeps out (`bench/results/`, `dist/`) are what the service and the bench write, not source,
 * and a file the document tells its reader to save is the reader's. Reads files only: no Redis.
 */
const ROOT = resolve(import.meta.dirname, '..', '..');
const ROOTS = ['src', 'test', 'scripts', 'bench', 'docs', 'clients', '.ci'];
const SOURCE = /\.(ts|lua|mjs|cjs)$/;

/** What .gitignore keeps out, as paths from the root (`bench/results`, `dist`, `node_modules`). */
const IGNORED = readFileSync(join(ROOT, '.gitignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim().replace(/^\//, '').replace(/\/$/, ''))
  .filter((line) => line !== '' && !line.startsWith('#') && !line.includes('*'));
const ignored = (path: string) => IGNORED.some((entry) => path === entry || path.startsWith(`${entry}/`));

/** Every file and directory of the repository, as paths from its root (without .git and what .gitignore keeps out). */
function listRepository(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.name === '.git' || entry.name === 'node_modules' || ignored(path)) continue;
      found.push(path);
      if (entry.isDirectory()) walk(path);
    }
  };
  walk('');
  return found;
}
const REPOSITORY = listRepository();

/** A token as a pattern over whole paths: `*` and `<name>` any part of one name, the rest literal. */
const pattern = (token: string) =>
  token
    .split(/\*|<[^>/]+>/)
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]*');

/** Whether `token` (trailing slash dropped) names something of the repository; `fromRoot` when it starts at the root. */
export function names(token: string, fromRoot: boolean): boolean {
  const path = token.replace(/\/$/, '');
  if (fromRoot && ignored(path.replace(/\/?(\*|<).*$/, ''))) return true;
  const whole = new RegExp(fromRoot ? `^${pattern(path)}$` : `(^|/)${pattern(path)}$`);
  return REPOSITORY.some((entry) => whole.test(entry));
}

/** A token a document names: a backticked word (from the root, or a file name) or a link's target (from the document). */
export type PathToken = { token: string; link: boolean };

/** The tokens of a Markdown text that look like a repository path or a source file: backticked words and link targets. */
export function pathTokens(markdown: string): PathToken[] {
  const text = markdown.replace(/```[\s\S]*?```/g, '');
  const found = new Map<string, PathToken>();
  const add = (raw: string, link: boolean) => {
    if (/^[a-z]+:/i.test(raw)) return;
    const token = raw
      .replace(/#.*$/, '')
      .replace(/:\d+$/, '')
      .replace(/[.:…]+$/, '');
    const rooted = ROOTS.some((root) => token.startsWith(`${root}/`));
    if (token !== '' && (link || rooted || (SOURCE.test(token) && !token.startsWith('/')))) found.set(`${link}:${token}`, { token, link });
  };
  for (const [, span] of text.matchAll(/`([^`\n]+)`/g)) for (const word of span!.split(/[\s,;()"'=]+/)) add(word, false);
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) add(target!, true);
  return [...found.values()];
}

/** The documents, with their text: the Markdown files of the repository and the guide the service serves. */
function documents(): Array<{ name: string; dir: string; text: string }> {
  const files = [
    'README.md',
    'bench/README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  return [
    ...files.map((file) => ({ name: file, dir: dirname(file), text: readFileSync(join(ROOT, file), 'utf8') })),
    { name: 'GET /skill.md', dir: '.', text: skillGuide('http://127.0.0.1:8080') },
  ];
}

/** Whether a token of a document names something of the repository. */
function exists(document: { dir: string; text: string }, { token, link }: PathToken): boolean {
  // a file the document tells its reader to make (the guide's "Save as `events.mjs`") is the reader's own
  if (!link && document.text.includes(`Save as \`${token}\``)) return true;
  if (link) {
    // a link's target is relative to its document, and stays inside the repository
    const path = relative(ROOT, resolve(ROOT, document.dir, token));
    return !path.startsWith('..') && names(path, true);
  }
  if (ROOTS.some((root) => token.startsWith(`${root}/`))) return names(token, true);
  return names(token, false);
}

describe('the source paths the documents name', () => {
  it('recognises paths, source file names and patterns, and nothing else', () => {
    const tokens = pathTokens(
      '`src/app.ts`, `record_swipe-5.lua` (`record_swipe`), `npx tsx bench/main.ts --help`, [a](../bench/README.md#x), [c](#y), `*-routes.ts`, `/api/v1/me`, [b](https://example.com/x.ts)',
    );
    expect(tokens.map(({ token, link }) => (link ? `(${token})` : token))).toEqual([
      'src/app.ts',
      'record_swipe-5.lua',
      'bench/main.ts',
      '*-routes.ts',
      '(../bench/README.md)',
    ]);
    expect(names('src/features/swipes/', true)).toBe(true);
    expect(names('record_swipe-5.lua', false)).toBe(true);
    expect(names('swipes/swipe-routes.ts', false)).toBe(true);
    expect(names('*-routes.ts', false)).toBe(true);
    expect(names('bench/results/<timestamp>.json', true)).toBe(true);
    expect(names('stream-event-publisher.ts', false)).toBe(false);
    expect(names('events/swipe-routes.ts', false)).toBe(false);
    expect(names('src/features/swipes/lua/record_swipe.lua', true)).toBe(false);
    expect(names('*-nothing.ts', false)).toBe(false);
  });

  it('name files and directories that exist, in every document and the served guide', () => {
    const wrong = documents().flatMap((document) =>
      pathTokens(document.text)
        .filter((token) => !exists(document, token))
        .map(({ token }) => `${document.name}: ${token}`),
    );
    expect(wrong).toEqual([]);
  });
});
