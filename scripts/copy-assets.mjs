#!/usr/bin/env node
// Copies what the built service reads at run time besides its compiled code (the Lua scripts, the spectator
// page's files) from src/ into the build's output directory, at the same paths: dist/ then runs on its own.
//   node scripts/copy-assets.mjs [outDir=dist]
import { cpSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const source = 'src';
const target = process.argv[2] ?? 'dist';
let copied = 0;
for (const entry of readdirSync(source, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || entry.name.endsWith('.ts')) continue;
  const from = join(entry.parentPath, entry.name);
  cpSync(from, join(target, relative(source, from)));
  copied++;
}
console.log(`copied ${copied} files from ${source}/ to ${target}/`);
