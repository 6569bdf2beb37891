import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config.js';
import { skillGuide } from '../../src/features/operations/skill-guide.js';
import { ERROR_CODES, statusOf, type ErrorCode } from '../../src/platform/core/errors.js';
import { openApiDocument } from '../../scripts/openapi-document.js';

const guide = skillGuide('http://127.0.0.1:8080', DEFAULT_CONFIG);
const document = openApiDocument() as { paths: Record<string, Record<string, unknown>> };

/** Whether the document serves `method` on `path` (`{name}` stands for any one segment; a trailing `...` for any rest). */
function served(method: string, path: string): boolean {
  const open = path.endsWith('/...');
  const wanted = (open ? path.slice(0, -4) : path).split('/');
  return Object.entries(document.paths).some(([template, operations]) => {
    if (!(method.toLowerCase() in operations)) return false;
    const segments = template.split('/');
    if (open ? segments.length < wanted.length : segments.length !== wanted.length) return false;
    return wanted.every((segment, i) => segment === segments[i] || /^\{.+\}$/.test(segment) || /^\{.+\}$/.test(segments[i]!));
  });
}

describe('the guide (/skill.md)', () => {
  it('names only routes the service serves', () => {
    const named = [...guide.matchAll(/\b(GET|POST|PATCH|PUT|DELETE)\s+(\/[A-Za-z0-9_\-/{}.]+)/g)].map((m) => [m[1]!, m[2]!.replace(/(?<!\.)\.$/, '')] as const);
    expect(named.length).toBeGreaterThan(30);
    expect(named.filter(([method, path]) => !served(method, path)).map(([method, path]) => `${method} ${path}`)).toEqual([]);
  });

  it('names only error codes the service answers, each with the status it comes with', () => {
    const withStatus = [...guide.matchAll(/\b([1-5]\d\d) `([a-z_]+)`/g)].map((m) => [Number(m[1]), m[2]!] as const);
    const inExamples = [...guide.matchAll(/"code":\s*"([a-z_]+)"/g)].map((m) => m[1]!);
    expect(withStatus.length).toBeGreaterThan(5);
    expect(withStatus.filter(([status, code]) => !ERROR_CODES.includes(code as ErrorCode) || statusOf(code as ErrorCode) !== status)).toEqual([]);
    expect(inExamples.filter((code) => !ERROR_CODES.includes(code as ErrorCode))).toEqual([]);
  });
});
