import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const PACKAGE = resolve(import.meta.dirname, '../../clients/typescript');

/** The README's TypeScript blocks as one module of the package's own (never written to disk), importing the package's source. */
function readmeModule(): { file: string; text: string } {
  const readme = readFileSync(join(PACKAGE, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return { file: join(PACKAGE, 'src', 'readme-examples.ts'), text: blocks.join('\n').replaceAll("'@agent-match/client'", "'./index.js'") };
}

describe("the TypeScript client's README", () => {
  it('has examples that type-check against the package, with its own compiler settings', () => {
    const { file, text } = readmeModule();
    const config = ts.getParsedCommandLineOfConfigFile(
      join(PACKAGE, 'tsconfig.json'),
      { noEmit: true },
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
    )!;
    const host = ts.createCompilerHost(config.options);
    const readFile = host.readFile.bind(host);
    const fileExists = host.fileExists.bind(host);
    const getSourceFile = host.getSourceFile.bind(host);
    host.readFile = (name) => (name === file ? text : readFile(name));
    host.fileExists = (name) => name === file || fileExists(name);
    host.getSourceFile = (name, language, ...rest) => (name === file ? ts.createSourceFile(name, text, language) : getSourceFile(name, language, ...rest));
    const program = ts.createProgram([file], config.options, host);
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  }, 60_000);
});
