#!/usr/bin/env node
/**
 * Checks the import rules of .dependency-cruiser.cjs over src/ and exits non-zero on any violation.
 * Usage: node scripts/lint-layers.mjs [--config <file>] [<path>...]   (paths default to src and the TypeScript client's src)
 *
 * One rule is about what the pure modules say rather than what they import, which dependency-cruiser
 * cannot see: `pure-modules-know-no-http`, no module of src/platform/core and no *-schemas.ts carries HTTP
 * headers (a `headers` field, or a header name such as Retry-After used as a key) or OpenAPI metadata (zod
 * `.meta(...)`); the HTTP platform turns errors into HTTP and the routes' *-api.ts describe the schemas for
 * the API document.
 *
 * It calls dependency-cruiser's API rather than its `depcruise` command because that command refuses to
 * start on some Node.js releases; the API runs there and checks the same rules.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cruise, format } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const args = process.argv.slice(2);
const at = args.indexOf('--config');
const configFile = at >= 0 ? args.splice(at, 2)[1] : '.dependency-cruiser.cjs';
const targets = args.length > 0 ? args : ['src', 'clients/typescript/src'];

const options = await extractDepcruiseOptions(pathToFileURL(resolve(configFile)).href);
const tsConfigFile = options.tsConfig?.fileName;
const tsConfig = tsConfigFile && existsSync(tsConfigFile) ? extractTSConfig(tsConfigFile) : undefined;
const result = await cruise(targets, options, {}, { tsConfig });
const report = await format(result.output, { outputType: 'err' });
process.stdout.write(report.output);

const HTTP_IN_PURE =
  /(\.meta)\(|\bheaders\b\??\s*[:=]|(?:^\s*|[{,]\s*)['"]?(Allow|Retry-After|Content-Type|Content-Length|Location|WWW-Authenticate|Cache-Control|Set-Cookie)['"]?\s*:/;

/** The pure modules under <target>: platform/core/**, and features/<name>/*-schemas.ts. */
function pureModules(target) {
  const found = [];
  const core = join(target, 'platform', 'core');
  const features = join(target, 'features');
  for (const [dir, wanted] of [
    [core, (name) => name.endsWith('.ts')],
    [features, (name) => name.endsWith('-schemas.ts')],
  ]) {
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && wanted(entry.name)) found.push(join(entry.parentPath, entry.name));
    }
  }
  return found;
}

/** `pure-modules-know-no-http` over every pure module under <target>. */
function httpInPureModules(target) {
  const found = [];
  for (const file of pureModules(target)) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, n) => {
        const match = HTTP_IN_PURE.exec(line.replace(/\/\/.*$|^\s*\*.*$/, ''));
        if (match)
          found.push(
            `  error pure-modules-know-no-http: ${relative('.', file)}:${n + 1} carries ${match[1] ? 'OpenAPI metadata (.meta)' : `an HTTP header (${match[2] ?? 'headers'})`}`,
          );
      });
  }
  return found;
}

const pureProblems = targets.flatMap(httpInPureModules);
if (pureProblems.length > 0) process.stdout.write(`${pureProblems.join('\n')}\n\nx ${pureProblems.length} pure module line(s) carry HTTP.\n`);
process.exitCode = report.exitCode === 0 && pureProblems.length === 0 ? 0 : 1;
