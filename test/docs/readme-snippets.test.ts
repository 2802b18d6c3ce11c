/**
 * README.md is for people who install the package: it starts with the install line, names no
 * repository internals, and every `ts`/`tsx` snippet in it type-checks against the sources (as
 * `sitekit-sdk`, `sitekit-sdk/react`, ...). A snippet may use the free names of {@link READER_SUPPLIED}
 * (values a reader obviously has: their API key, an item id...); anything else must be defined
 * in the snippet itself.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** Where each import specifier of the package resolves in the sources. */
const ENTRY_SOURCES: Record<string, string> = {
  'sitekit-sdk': 'src/index.ts',
  'sitekit-sdk/react': 'src/react/index.ts',
  'sitekit-sdk/openapi': 'src/openapi/index.ts',
  'sitekit-sdk/emulator': 'emulator/index.ts',
};

/** The free names snippets may use, declared for them: what a reader brings. */
const READER_SUPPLIED = `
import type { Client } from 'sitekit-sdk';
declare global {
  const apiKey: string;
  const siteId: string;
  const clientId: string;
  const memberId: string;
  const movieId: string;
  const email: string;
  const password: string;
  const verificationCode: string;
  const redirectUri: string;
  /** The app's public key (SPKI PEM), for verifying webhooks. */
  const publicKey: string;
  /** An incoming webhook request. */
  const request: Request;
  const blobOrBuffer: Blob | Uint8Array;
  const movies: { title: string; year: number }[];
  const posterId: string;
  /** The app's root component. */
  function App(): import('react').ReactNode;
  /** A client created earlier in the README. */
  const client: Client;
}
export {};
`;

/**
 * A fenced code block of the README: its language, its text, the README line it starts on, and
 * the file name the README tells the reader to save it as ("Save it as `quick-start.mts`"), if any.
 */
interface Snippet {
  language: string;
  code: string;
  line: number;
  savedAs?: string;
  /** Saved in the reader's Playwright project (`Save it as \`x\` in your Playwright project`), not the new app. */
  inPlaywrightProject?: boolean;
}

/**
 * Where a snippet the README names a file for is checked: an app as `npm init -y` makes it
 * (CommonJS: its package.json has no `"type"`), so a top-level `await` in a `.ts` file fails there
 * as it does for the reader.
 */
const NEW_APP = join(ROOT, 'test/docs/new-app');
const NEW_APP_PACKAGE = JSON.stringify({ name: 'new-app', version: '1.0.0', main: 'index.js', license: 'ISC' });
/**
 * Where the files of the reader's Playwright project are checked: Playwright compiles a test's
 * TypeScript as modules whatever its package.json says, so they are checked as modules.
 */
const PLAYWRIGHT_PROJECT = join(ROOT, 'test/docs/playwright-project');
const PLAYWRIGHT_PROJECT_PACKAGE = JSON.stringify({ name: 'playwright-project', type: 'module' });

/** The fenced code blocks of a Markdown text. */
function codeBlocks(markdown: string): Snippet[] {
  const blocks: Snippet[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const opening = /^```(\w*)\s*$/.exec(lines[index]!);
    if (!opening) continue;
    const end = lines.findIndex((line, at) => at > index && /^```\s*$/.test(line));
    if (end < 0) throw new Error(`README.md:${index + 1}: code block never closed`);
    const after = lines.slice(end + 1).find((line) => line.trim() !== '');
    const saved = after && /^Save it as `([^`]+)`( in your Playwright project)?/.exec(after);
    const savedAs = saved?.[1];
    blocks.push({
      language: opening[1]!,
      code: lines.slice(index + 1, end).join('\n'),
      line: index + 2,
      ...(savedAs ? { savedAs } : {}),
      ...(saved?.[2] ? { inPlaywrightProject: true } : {}),
    });
    index = end;
  }
  return blocks;
}

/** The compiler options of the repository, for snippets: unused names allowed, the package mapped to its sources. */
function snippetOptions(): ts.CompilerOptions {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (!config) throw new Error('tsconfig.json could not be read');
  const paths = Object.fromEntries(
    Object.entries(ENTRY_SOURCES).map(([specifier, source]) => [specifier, [join(ROOT, source)]]),
  );
  return { ...config.options, noUnusedLocals: false, noUnusedParameters: false, noEmit: true, paths };
}

/**
 * Type-checks snippets, each as its own module, and returns their errors by snippet, with
 * README line numbers.
 */
function typecheckSnippets(snippets: Snippet[]): string[][] {
  const folder = join(ROOT, 'test/docs');
  const virtual = new Map<string, string>([
    [join(folder, 'reader-supplied.d.ts'), READER_SUPPLIED],
    [join(NEW_APP, 'package.json'), NEW_APP_PACKAGE],
    [join(PLAYWRIGHT_PROJECT, 'package.json'), PLAYWRIGHT_PROJECT_PACKAGE],
  ]);
  const names = snippets.map((snippet) =>
    snippet.savedAs
      ? join(snippet.inPlaywrightProject ? PLAYWRIGHT_PROJECT : NEW_APP, snippet.savedAs)
      : join(folder, `readme-line-${snippet.line}.${snippet.language}`),
  );
  // `export {}` makes a snippet a module, so its names do not clash with the other snippets'.
  for (const [index, snippet] of snippets.entries()) virtual.set(names[index]!, `${snippet.code}\nexport {};\n`);
  const options = snippetOptions();
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (file) => virtual.has(file) || fileExists.call(host, file);
  // The new app exists only here: the module-format lookup asks for its folder before its package.json.
  const { directoryExists } = host;
  host.directoryExists = (directory) =>
    directory === NEW_APP || directory === PLAYWRIGHT_PROJECT || (directoryExists?.call(host, directory) ?? true);
  host.readFile = (file) => virtual.get(file) ?? readFile.call(host, file);
  host.getSourceFile = (file, language, ...rest) => {
    const text = virtual.get(file);
    return text === undefined
      ? getSourceFile.call(host, file, language, ...rest)
      : ts.createSourceFile(file, text, language);
  };
  const program = ts.createProgram([...virtual.keys()], options, host);
  return names.map((name, index) => {
    const file = program.getSourceFile(name)!;
    return ts.getPreEmitDiagnostics(program, file).map((diagnostic) => {
      const { line } =
        diagnostic.start === undefined ? { line: 0 } : file.getLineAndCharacterOfPosition(diagnostic.start);
      return `README.md:${snippets[index]!.line + line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    });
  });
}

const snippets = codeBlocks(README).filter((block) => block.language === 'ts' || block.language === 'tsx');
let errors: string[][];

beforeAll(() => {
  errors = typecheckSnippets(snippets);
}, 120_000);

describe('README.md', () => {
  it('starts with installing the package and using it', () => {
    const install = README.indexOf('## Install');
    const firstBlock = codeBlocks(README.slice(install))[0];
    expect(firstBlock?.code.trim()).toBe('npm install sitekit-sdk');
    expect(install).toBeLessThan(README.indexOf('## Use'));
  });

  it('says on its first screen the two commands that set up a clone of the repository', () => {
    const [setUp] = codeBlocks(README.slice(0, README.indexOf('## Install')));
    expect(setUp?.code).toMatch(/^npm install && npm start\b/m);
    expect(setUp?.code).toMatch(/^npm test\b/m);
  });

  it('names nothing a package user does not have (reference documents, schema/, generated/)', () => {
    expect(README.match(/\.\.\/shared|\bschema\/|\bgenerated\//g) ?? []).toEqual([]);
  });

  it('starts the emulator with nothing installed but the package (no peer to install first)', () => {
    const quickStart = README.slice(README.indexOf('## Quick start'), README.indexOf('## Use'));
    const lines = codeBlocks(quickStart).flatMap((block) => block.code.split('\n'));
    expect(lines).toContain('npx sitekit-sdk emulator');
    expect(lines.filter((line) => line.startsWith('npm install'))).toEqual([]);
  });

  it('shows totalCount only where the total is asked for (returnTotalCount)', () => {
    const counting = snippets.filter(
      (snippet) =>
        snippet.code.includes('totalCount') && !/returnTotalCount/.test(snippet.code.replace(/\/\/.*$/gm, '')),
    );
    expect(counting.map((snippet) => `README.md:${snippet.line}`)).toEqual([]);
  });

  it('has ts snippets, and the check finds a wrong one', () => {
    expect(snippets.length).toBeGreaterThan(3);
    const [wrong] = typecheckSnippets([
      {
        language: 'ts',
        code: "import { createClient } from 'sitekit-sdk';\ncreateClient({ timeoutMs: 'soon' });",
        line: 1,
      },
    ]);
    expect(wrong!.join('\n')).toMatch(/README\.md:2: .*'string' is not assignable to type 'number'/);
  });

  it('checks the Quick start as the file it says to save, in an app made by npm init -y', () => {
    const quickStart = snippets.find((snippet) => snippet.savedAs);
    expect(quickStart?.savedAs).toMatch(/\.mts$/);
    // The same code saved as .ts in that app fails, as it did for a new user.
    const [asTs] = typecheckSnippets([{ ...quickStart!, savedAs: 'quick-start.ts' }]);
    expect(asTs!.join('\n')).toMatch(/top level|top-level/i);
  });

  it.each(snippets.map((snippet, index) => [snippet.line, index] as const))(
    'snippet at line %i type-checks',
    (_line, index) => {
      expect(errors[index]).toEqual([]);
    },
  );
});
