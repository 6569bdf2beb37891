#!/usr/bin/env node
/**
 * Checks the import rules of .dependency-cruiser.cjs over src/ and exits non-zero on any violation.
 * Usage: node scripts/lint-layers.mjs [--config <file>] [<path>...]   (paths default to src)
 *
 * One rule is about what the domain says rather than what it imports, which dependency-cruiser cannot
 * see: `domain-knows-no-http`, no module of src/domain carries HTTP headers (a `headers` field, or a
 * header name such as Retry-After used as a key) or OpenAPI metadata (zod `.meta(...)`); the edges turn
 * domain errors into HTTP and describe the domain's schemas for the API document.
 *
 * It calls dependency-cruiser's API rather than its `depcruise` command because that command refuses to
 * start on Node 20, which this project supports; the API runs there and checks the same rules.
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
const targets = args.length > 0 ? args : ['src'];

const options = await extractDepcruiseOptions(pathToFileURL(resolve(configFile)).href);
const tsConfigFile = options.tsConfig?.fileName;
const tsConfig = tsConfigFile && existsSync(tsConfigFile) ? extractTSConfig(tsConfigFile) : undefined;
const result = await cruise(targets, options, {}, { tsConfig });
const report = await format(result.output, { outputType: 'err' });
process.stdout.write(report.output);

const HTTP_IN_DOMAIN = /(\.meta)\(|\bheaders\b\??\s*[:=]|(?:^\s*|[{,]\s*)['"]?(Allow|Retry-After|Content-Type|Content-Length|Location|WWW-Authenticate|Cache-Control|Set-Cookie)['"]?\s*:/;

/** `domain-knows-no-http` over every TypeScript module under <target>/domain. */
function httpInDomain(target) {
  const domain = join(target, 'domain');
  if (!existsSync(domain)) return [];
  const found = [];
  for (const entry of readdirSync(domain, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = join(entry.parentPath, entry.name);
    readFileSync(file, 'utf8').split('\n').forEach((line, n) => {
      const match = HTTP_IN_DOMAIN.exec(line.replace(/\/\/.*$|^\s*\*.*$/, ''));
      if (match) found.push(`  error domain-knows-no-http: ${relative('.', file)}:${n + 1} carries ${match[1] ? 'OpenAPI metadata (.meta)' : `an HTTP header (${match[2] ?? 'headers'})`}`);
    });
  }
  return found;
}

const domainProblems = targets.flatMap(httpInDomain);
if (domainProblems.length > 0) process.stdout.write(`${domainProblems.join('\n')}\n\nx ${domainProblems.length} domain module line(s) carry HTTP.\n`);
process.exitCode = report.exitCode === 0 && domainProblems.length === 0 ? 0 : 1;
