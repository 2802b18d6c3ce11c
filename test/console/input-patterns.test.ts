/**
 * Every `pattern` attribute of the console compiles as browsers compile it: with the `v` flag
 * (Chromium since 114), where a bare `-` at the end of a class is a syntax error. A pattern that does
 * not compile is ignored by the browser with a console error, and the field goes unchecked.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const consoleSources = resolve(import.meta.dirname, '../../console/src');

/** Every `pattern="..."` of the console's TSX files, with where it is. */
function patterns(): { where: string; pattern: string }[] {
  const found: { where: string; pattern: string }[] = [];
  for (const entry of readdirSync(consoleSources, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.tsx')) continue;
    const path = join(entry.parentPath, entry.name);
    for (const match of readFileSync(path, 'utf8').matchAll(/\bpattern="([^"]*)"/g))
      found.push({ where: path.slice(consoleSources.length + 1), pattern: match[1]! });
  }
  return found;
}

describe('the console’s input patterns', () => {
  it('are found (the profile slug has one)', () => {
    expect(patterns().map(({ where }) => where)).toContain('site/profile-page.tsx');
  });

  it.each(patterns().map(({ where, pattern }) => [where, pattern]))('%s: %s compiles with the v flag', (_, pattern) => {
    expect(() => new RegExp(`^(?:${pattern})$`, 'v')).not.toThrow();
  });
});
