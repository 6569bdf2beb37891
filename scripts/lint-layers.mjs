#!/usr/bin/env node
/**
 * Checks the import rules of .dependency-cruiser.cjs over src/ and exits non-zero on any violation.
 * Usage: node scripts/lint-layers.mjs [--config <file>] [<path>...]   (paths default to src)
 *
 * It calls dependency-cruiser's API rather than its `depcruise` command because that command refuses to
 * start on Node 20, which this project supports; the API runs there and checks the same rules.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
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
process.exitCode = report.exitCode === 0 ? 0 : 1;
