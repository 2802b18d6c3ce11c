/**
 * The public API report: `etc/sitekit.api.md` lists every name each package entry exports (from
 * the built `.d.mts` files), with its declaration, then the declarations those use without
 * exporting them. Reviewing its diff shows every change of the public surface; a test
 * (test/package/public-types.test.ts) fails when it is stale.
 *
 * `npm run api:report` builds the declarations into a temporary folder with the declaration part
 * of rollup.config.mjs (so it never reads a stale `dist/`), then writes the report.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rollup, type OutputOptions, type RollupOptions } from 'rollup';
import ts from 'typescript';

/** The repository root. */
export const ROOT = resolve(import.meta.dirname, '..');
/** Where the report is committed. */
export const REPORT_PATH = join(ROOT, 'etc/sitekit.api.md');

/** One package entry: its import specifier and its declaration file, relative to the package. */
export interface PackageEntry {
  specifier: string;
  types: string;
}

/** The package's entries with types, from package.json `exports` (the `import` condition). */
export function packageEntries(): PackageEntry[] {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, unknown>;
  };
  const entries: PackageEntry[] = [];
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const types = importTypes(target);
    if (types)
      entries.push({ specifier: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`, types });
  }
  return entries;
}

/** The `types` of the `import` condition, looked for under any other condition too (e.g. `node`). */
function importTypes(target: unknown): string | undefined {
  if (typeof target !== 'object' || target === null) return undefined;
  const conditions = target as Record<string, unknown>;
  const ownImport = conditions.import as Record<string, unknown> | undefined;
  if (typeof ownImport?.types === 'string') return ownImport.types;
  for (const nested of Object.values(conditions)) {
    const found = importTypes(nested);
    if (found) return found;
  }
  return undefined;
}

/**
 * Builds the package's declaration files (`.d.mts` and `.d.cts`) into `outDir`, as `npm run build`
 * does for `dist/`: the rollup configurations whose output names end in `.d.mts`/`.d.cts`.
 */
export async function buildDeclarations(outDir: string): Promise<void> {
  const configs = ((await import(pathToFileURL(join(ROOT, 'rollup.config.mjs')).href)) as { default: RollupOptions[] })
    .default;
  const declarationConfigs = configs.filter((config) =>
    outputsOf(config).every((output) => /\.d\.[mc]ts$/.test(String(output.entryFileNames))),
  );
  if (declarationConfigs.length === 0)
    throw new Error('rollup.config.mjs has no declaration build (.d.mts/.d.cts outputs)');
  // The configuration names its tsconfig relative to the repository.
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    for (const config of declarationConfigs) {
      const bundle = await rollup({ ...config, onwarn: () => {} });
      for (const output of outputsOf(config))
        await bundle.write({
          ...output,
          dir: join(outDir, relative(join(ROOT, 'dist'), resolve(ROOT, output.dir ?? 'dist'))),
        });
      await bundle.close();
    }
  } finally {
    process.chdir(cwd);
  }
}

const outputsOf = (config: RollupOptions): OutputOptions[] =>
  Array.isArray(config.output) ? config.output : config.output ? [config.output] : [];

/** Prints declarations without comments, so the report changes with the API, not with its docs. */
const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** The statement to print for a declaration (a variable's whole `declare const` statement). */
function statementOf(declaration: ts.Declaration): ts.Node {
  if (ts.isVariableDeclaration(declaration)) return declaration.parent.parent;
  return declaration;
}

/** True for declarations of the package itself (not of TypeScript's lib or another package). */
const isOwn = (declaration: ts.Declaration, packageDir: string): boolean =>
  declaration.getSourceFile().fileName.startsWith(join(packageDir, 'dist/'));

/**
 * The report for the package whose declarations are in `packageDir/dist/` (built by
 * {@link buildDeclarations}); entries as {@link packageEntries} gives them.
 */
export function apiReport(packageDir: string, entries: PackageEntry[] = packageEntries()): string {
  const files = entries.map((entry) => join(packageDir, entry.types));
  const program = ts.createProgram(files, {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const resolveAlias = (symbol: ts.Symbol): ts.Symbol =>
    symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const print = (node: ts.Node) => printer.printNode(ts.EmitHint.Unspecified, node, node.getSourceFile());

  // First every entry's exports, so a name exported by one entry counts as public for all.
  const exportsByEntry = entries.map((entry, index) => {
    const source = program.getSourceFile(files[index]!);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) throw new Error(`${entry.types}: no such declaration file (build it first)`);
    return checker.getExportsOfModule(moduleSymbol).sort((a, b) => a.name.localeCompare(b.name));
  });
  const exported = new Set(exportsByEntry.flat().map(resolveAlias));

  /**
   * The declarations an entry's exported ones use that no entry exports: names users see in
   * hovers but cannot import. Followed transitively.
   */
  const unexportedUsedBy = (roots: ts.Symbol[]): string[] => {
    const unexported = new Map<ts.Symbol, string[]>();
    const queue = [...roots];
    const visit = (node: ts.Node): void => {
      if (ts.isTypeReferenceNode(node) || ts.isExpressionWithTypeArguments(node) || ts.isTypeQueryNode(node)) {
        const name = ts.isTypeReferenceNode(node)
          ? node.typeName
          : ts.isTypeQueryNode(node)
            ? node.exprName
            : node.expression;
        const symbol = checker.getSymbolAtLocation(name);
        const target = symbol && resolveAlias(symbol);
        const own = (target?.declarations ?? []).filter(
          (declaration) => isOwn(declaration, packageDir) && !ts.isTypeParameterDeclaration(declaration),
        );
        if (target && own.length && !exported.has(target) && !unexported.has(target)) {
          unexported.set(
            target,
            own.map((declaration) => print(statementOf(declaration))),
          );
          queue.push(target);
        }
      }
      ts.forEachChild(node, visit);
    };
    for (let symbol = queue.shift(); symbol; symbol = queue.shift())
      for (const declaration of symbol.declarations ?? []) if (isOwn(declaration, packageDir)) visit(declaration);
    return [...unexported.entries()].sort(([a], [b]) => a.name.localeCompare(b.name)).flatMap(([, printed]) => printed);
  };

  const sections = entries.map((entry, index) => {
    const exports = exportsByEntry[index]!;
    const lines: string[] = [];
    for (const symbol of exports) {
      const target = resolveAlias(symbol);
      const declarations = (target.declarations ?? []).filter((declaration) => isOwn(declaration, packageDir));
      // A name re-exported from another package is listed by name only.
      if (declarations.length === 0) lines.push(`export { ${symbol.name} } /* from another package */;`);
      const renamed = target.name !== symbol.name ? ` /* exported as ${symbol.name} */` : '';
      for (const declaration of declarations) lines.push(print(statementOf(declaration)) + renamed);
    }
    const used = unexportedUsedBy(exports.map(resolveAlias));
    return [
      `## ${entry.specifier}\n\n\`${entry.types}\`: ${exports.length} exported names.\n\n\`\`\`ts\n${lines.join('\n\n')}\n\`\`\`\n`,
      `### ${entry.specifier}: used by its declarations, not exported\n\n${used.length} ${used.length === 1 ? 'declaration' : 'declarations'}.\n${used.length ? `\n\`\`\`ts\n${used.join('\n\n')}\n\`\`\`\n` : ''}`,
    ].join('\n');
  });

  return `# sitekit: public API report\n\nWritten by \`npm run api:report\` from the built declaration files; do not edit by hand.\nA test fails when it is stale: review its diff with every change of the public types.\n\n${sections.join('\n')}`;
}

/**
 * A temporary folder for a build, inside the repository's node_modules so the declarations'
 * imports of the package's dependencies (React, TanStack Query) resolve as they do for users.
 */
export function temporaryPackageDir(): string {
  const cache = join(ROOT, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  return mkdtempSync(join(cache, 'sitekit-api-'));
}

/** Builds the declarations in a temporary folder and returns the report. */
export async function currentApiReport(): Promise<string> {
  const work = temporaryPackageDir();
  try {
    await buildDeclarations(join(work, 'dist'));
    return apiReport(work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const report = await currentApiReport();
  mkdirSync(dirname(REPORT_PATH), { recursive: true });
  writeFileSync(REPORT_PATH, report);
  console.log(`wrote ${relative(ROOT, REPORT_PATH)}`);
}
