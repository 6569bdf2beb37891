import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** How many keys a script takes: exactly `count`, or (`more`) `count` and then a list its header describes. */
export type KeyCount = { count: number; more: boolean };

/** A script ready to send: its text with every include expanded, and the SHA1 of that text. */
export type LoadedScript = { name: string; file: string; keys: KeyCount; lua: string; sha: string };

/** `record_swipe-5.lua`: exactly 5 keys; `browse-2+.lua`: 2 keys, then a list. */
const SCRIPT_FILE = /^([a-z][a-z0-9_]*)-(\d+)(\+?)\.lua$/;
const INCLUDE = /^---[ \t]*@include[ \t]+"([^"]+)"[ \t]*$/gm;

export class ScriptLoadError extends Error {
  override readonly name = 'ScriptLoadError';
}

/**
 * Loads the Lua scripts of `dirs`: the `.lua` files directly in each directory (a subdirectory such as
 * `includes/` holds fragments, never loaded alone). A script's file name carries its number of keys, and a
 * file without it is refused. A line `--- @include "includes/now_ms"` is replaced by that fragment
 * (`.lua` added, relative to the including file, else to `shared`), itself expanded the same way; a fragment included more
 * than once in one script, directly or through another fragment, is expanded at its first place only.
 */
export function loadScripts(dirs: readonly string[], shared?: string): Map<string, LoadedScript> {
  const scripts = new Map<string, LoadedScript>();
  for (const dir of dirs) {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.lua')) continue;
      const file = join(dir, entry.name);
      const named = SCRIPT_FILE.exec(entry.name);
      if (!named)
        throw new ScriptLoadError(
          `${file}: a script's file name carries its number of keys, as <name>-<keys>.lua (or <name>-<keys>+.lua when a list of keys follows them)`,
        );
      const [, name, count, more] = named as unknown as [string, string, string, string];
      const loaded = scripts.get(name);
      if (loaded) throw new ScriptLoadError(`${file}: a script named ${name} is loaded already, from ${loaded.file}`);
      const lua = expand(file, new Set(), [], shared);
      scripts.set(name, { name, file, keys: { count: Number(count), more: more === '+' }, lua, sha: createHash('sha1').update(lua).digest('hex') });
    }
  }
  return scripts;
}

/** The text of `file` with its includes expanded; `emitted`: the fragments this script holds already. */
function expand(file: string, emitted: Set<string>, including: readonly string[], shared: string | undefined): string {
  const text = read(file, including);
  return text.replace(new RegExp(INCLUDE.source, INCLUDE.flags), (_line, reference: string) => {
    const beside = resolve(dirname(file), `${reference}.lua`);
    const fragment = shared && !existsSync(beside) ? resolve(shared, `${reference}.lua`) : beside;
    if (fragment === file || including.includes(fragment)) throw new ScriptLoadError(`${file}: includes "${reference}", which includes it back`);
    if (emitted.has(fragment)) return '';
    emitted.add(fragment);
    return expand(fragment, emitted, [...including, file], shared).replace(/\n$/, '');
  });
}

function read(file: string, including: readonly string[]): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || including.length === 0) throw error;
    throw new ScriptLoadError(`${including.at(-1)}: includes ${file}, which does not exist`);
  }
}
