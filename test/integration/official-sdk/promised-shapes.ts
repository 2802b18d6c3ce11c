/**
 * What the official SDK's types promise of each result: the `NonNullablePaths<Response, paths>`
 * of every function's declared return type, read from the official modules' `.d.mts` files as
 * they are installed (so a newer official module brings its newer promises), and a check of a
 * result against them.
 */
import { readFileSync } from 'node:fs';

/** The typings file of an official generated module (`@wix/auto_sdk_members_members`), as installed. */
function typingsOf(modulePackage: string): string {
  const file = new URL(`../../../node_modules/${modulePackage}/build/es/index.typings.d.mts`, import.meta.url);
  return readFileSync(file, 'utf8');
}

/** How the types name every element of a list in a path (a template literal's placeholder). */
const ELEMENT = ['$', '{number}'].join('');

/**
 * `function name → promised paths` of one official module: each path a list of segments, where
 * `*` stands for every element of a list (the types' `${number}`).
 */
export function promisedPaths(modulePackage: string): Map<string, string[][]> {
  const promises = new Map<string, string[][]>();
  // `declare function name(<parameters>): Promise<NonNullablePaths<Type, `a` | `b.c`, depth>`: the
  // parameters may hold one level of parentheses (a handler) and NonNullablePaths of their own.
  const declaration = /declare function (\w+)\((?:[^()]|\([^()]*\))*\): Promise<NonNullablePaths<\w+, ([^>]*?), \d+>/g;
  for (const [, name, list] of typingsOf(modulePackage).matchAll(declaration)) {
    const paths = [...list!.matchAll(/`([^`]*)`/g)].map(([, path]) => path!.replaceAll(ELEMENT, '*').split('.'));
    promises.set(name!, paths);
  }
  return promises;
}

/**
 * Where `value` breaks a promise: a promised field missing (or null) under an object that is
 * there. A field whose parent object is absent promises nothing (the service leaves out what a
 * field set does not cover), and `*` checks every element of a list.
 */
export function brokenPromises(value: unknown, paths: readonly string[][]): string[] {
  const broken: string[] = [];
  const visit = (node: unknown, rest: readonly string[], at: string): void => {
    if (rest.length == 0) return;
    const [segment, ...below] = rest as [string, ...string[]];
    if (segment == '*') {
      if (!Array.isArray(node)) return void broken.push(`${at}: not a list`);
      for (const [index, element] of node.entries()) visit(element, below, `${at}[${index}]`);
      return;
    }
    if (node == null || typeof node != 'object') return;
    const child = (node as Record<string, unknown>)[segment];
    const path = at ? `${at}.${segment}` : segment;
    if (child == null) {
      // A missing object on the way promises nothing about what is below it; a missing leaf breaks.
      if (below.length == 0 || below[0] == '*') broken.push(`${path}: missing`);
      return;
    }
    visit(child, below, path);
  };
  for (const path of paths) visit(value, path, '');
  return [...new Set(broken)];
}
