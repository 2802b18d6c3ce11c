/** loadOnFirstUse: one import, shared; a failed load is a NetworkError and is tried again. And the seam's rule. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { isNetworkError } from '../../src/errors/index.js';
import { loadOnFirstUse } from '../../src/lazy.js';

describe('loadOnFirstUse', () => {
  it('imports once, on the first call, and shares the result', async () => {
    const load = vi.fn(async () => ({ answer: 42 }));
    const loader = loadOnFirstUse(load);
    expect(load).not.toHaveBeenCalled();
    const [first, second] = await Promise.all([loader(), loader()]);
    expect(first).toBe(second);
    expect(first.answer).toBe(42);
    await loader();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a failed load rejects with NetworkError (the cause kept) and the next call tries again', async () => {
    const cause = new TypeError('Failed to fetch dynamically imported module');
    const load = vi.fn().mockRejectedValueOnce(cause).mockResolvedValueOnce({ ok: true });
    const loader = loadOnFirstUse(load as () => Promise<{ ok: boolean }>);
    const error = await loader().catch((e: unknown) => e);
    expect(isNetworkError(error)).toBe(true);
    expect((error as Error).cause).toBe(cause);
    expect(await loader()).toEqual({ ok: true });
    expect(load).toHaveBeenCalledTimes(2);
  });
});

/**
 * The seam's rule (src/README.md), checked on the sources: every `import()` of src/ goes through
 * loadOnFirstUse, and a module of ours that loads on first use loads no other module of ours on
 * first use (a package it needs only on some paths, like jose or tus-js-client, may load later).
 */
describe('the seam of src/', () => {
  const srcDir = join(import.meta.dirname, '../../src');
  const files = readdirSync(srcDir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(srcDir, name));
  /** The code of a file without its comments, so examples in TSDoc do not count. */
  const code = (file: string) => readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
  /** Each `import('...')` of a file (a type position `import('x').Y` aside), with the code before it. */
  const dynamicImports = (file: string) =>
    [...code(file).matchAll(/(?<!typeof |as |: )import\((['"])([^'"]+)\1\)/g)].map((match) => ({
      specifier: match[2]!,
      before: code(file).slice(0, match.index),
    }));

  it('loads every module on first use through loadOnFirstUse', () => {
    const outside = files.flatMap((file) =>
      dynamicImports(file)
        // The loader's call opens at most a few lines before its import().
        .filter(({ before }) => !/loadOnFirstUse\((?:[^\n]*\n){0,2}[^\n]*$/.test(before))
        .map(({ specifier }) => `${relative(srcDir, file)}: ${specifier}`),
    );
    expect(outside).toEqual([]);
  });

  it('has no module of ours loaded on first use inside another one', () => {
    const lazyModules = files.flatMap((file) =>
      dynamicImports(file)
        .filter(({ specifier }) => specifier.startsWith('.') && !specifier.includes('/generated/'))
        .map(({ specifier }) => resolve(dirname(file), specifier.replace(/\.js$/, '.ts'))),
    );
    expect(lazyModules.length).toBeGreaterThan(5);
    const nested = lazyModules.flatMap((file) =>
      dynamicImports(file)
        .filter(({ specifier }) => specifier.startsWith('.'))
        .map(({ specifier }) => `${relative(srcDir, file)} loads ${specifier}`),
    );
    expect(nested).toEqual([]);
  });
});
