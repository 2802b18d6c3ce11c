/**
 * `npm run lint`'s check for unused exports: an `export` of our own code that no other file imports
 * is either dead or should not be exported. Reads the whole repository as one TypeScript program
 * (tsconfig.json's files, the console and the scripts) and resolves every import and re-export to
 * the declaration it names, so a renamed import, a re-export chain or an `index.ts` all count.
 * Exports of the package's entry points (and of what they re-export) are the public API and are
 * used by definition; `import * as`, `export *` and `import('...')` use every export of their module.
 * An export its own file uses (a parameter's type, a constant of a function) is not reported: the
 * check is for dead code, not for what may be exported (knip's `ignoreExportsUsedInFile`).
 * Exits 1 listing `file: name` for each unused export, unless it is listed in {@link KEPT} with why.
 */
import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Modules whose exports are an interface to something outside this check (the public API, entry scripts). */
const ENTRY_POINTS = [
  'src/index.ts',
  'src/react/index.ts',
  'src/openapi/index.ts',
  'emulator/index.ts',
  // Test helpers, configs and benchmarks are run, not imported: their exports are not checked.
];

/** Folders whose files are checked (generated/ is written by codegen, test files export nothing of use). */
const CHECKED = ['src/', 'emulator/', 'cli/', 'console/src/', 'codegen/', 'bench/', 'test/helpers/', 'scripts/'];

/** Exports kept though nothing here imports them, each with its reason. */
const KEPT = {
  // One type per schema of the control API, listed together for the control API's clients.
  'emulator/control/api.ts: FaultOperation': 'a control API schema type',
  'emulator/control/api.ts: SiteInfo': 'a control API schema type',
  'emulator/control/api.ts: ImportInput': 'a control API schema type',
  'emulator/control/state.ts: StateExport': 'the version 1 export file, documented as a type for older files',
};

/** Every `.ts`/`.tsx` file under `folder`, relative paths. */
function filesUnder(folder) {
  const entries = readdirSync(join(root, folder), { withFileTypes: true });
  return entries.flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(path);
    return /\.tsx?$/.test(entry.name) && !/\.d\.m?ts$/.test(entry.name) ? [path] : [];
  });
}

const config = ts.getParsedCommandLineOfConfigFile(
  join(root, 'tsconfig.json'),
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
);
const rootNames = [
  ...config.fileNames,
  ...filesUnder('console/src'),
  ...filesUnder('console/scripts'),
  'console/vite.config.ts',
  ...filesUnder('scripts'),
].map((file) => resolve(root, file));
const program = ts.createProgram({ rootNames, options: { ...config.options, noEmit: true } });
const checker = program.getTypeChecker();

/** The declaration symbol an alias (an import or re-export) stands for. */
const target = (symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);

/** The module symbol a module specifier names, when it is one of ours. */
function moduleOf(specifier) {
  const symbol = checker.getSymbolAtLocation(specifier);
  return symbol?.declarations?.[0] && ts.isSourceFile(symbol.declarations[0]) ? symbol : undefined;
}

/** Declarations imported elsewhere, and declarations their own file uses (an exported parameter type, a constant). */
const used = new Set();
const usedInOwnFile = new Set();
const useAll = (moduleSymbol) => {
  if (moduleSymbol) for (const symbol of checker.getExportsOfModule(moduleSymbol)) used.add(target(symbol));
};

/** Whether a file's exports are checked. */
const checked = (file) => {
  const path = relative(root, file.fileName);
  return !file.isDeclarationFile && CHECKED.some((folder) => path.startsWith(folder)) && !ENTRY_POINTS.includes(path);
};

/** Whether an identifier is the name a declaration gives (not a use of it). */
const isDeclarationName = (node) =>
  (ts.isFunctionDeclaration(node.parent) ||
    ts.isClassDeclaration(node.parent) ||
    ts.isInterfaceDeclaration(node.parent) ||
    ts.isTypeAliasDeclaration(node.parent) ||
    ts.isVariableDeclaration(node.parent) ||
    ts.isEnumDeclaration(node.parent)) &&
  node.parent.name === node;

for (const file of program.getSourceFiles()) {
  if (file.isDeclarationFile || relative(root, file.fileName).startsWith('node_modules')) continue;
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      const clause = ts.isImportDeclaration(node) ? node.importClause : node;
      if (node.moduleSpecifier && ts.isExportDeclaration(node) && !node.exportClause)
        useAll(moduleOf(node.moduleSpecifier));
      const bindings = ts.isImportDeclaration(node) ? clause?.namedBindings : node.exportClause;
      if (bindings && (ts.isNamespaceImport(bindings) || ts.isNamespaceExport(bindings)))
        useAll(node.moduleSpecifier && moduleOf(node.moduleSpecifier));
      if (bindings && (ts.isNamedImports(bindings) || ts.isNamedExports(bindings)) && node.moduleSpecifier)
        for (const element of bindings.elements) {
          const symbol = checker.getSymbolAtLocation(element.name);
          if (symbol) used.add(target(symbol));
        }
      if (ts.isImportDeclaration(node) && clause?.name) {
        const symbol = checker.getSymbolAtLocation(clause.name);
        if (symbol) used.add(target(symbol));
      }
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0]) {
      useAll(moduleOf(node.arguments[0]));
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      useAll(moduleOf(node.argument.literal));
    } else if (ts.isIdentifier(node) && checked(file) && !isDeclarationName(node)) {
      // `{ name }` names the property: the value it takes is the declaration used.
      const symbol = ts.isShorthandPropertyAssignment(node.parent)
        ? checker.getShorthandAssignmentValueSymbol(node.parent)
        : checker.getSymbolAtLocation(node);
      if (symbol) usedInOwnFile.add(symbol);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}

/** Every export of the entry points, and what their re-exports name, is public. */
for (const entry of ENTRY_POINTS) useAll(checker.getSymbolAtLocation(program.getSourceFile(join(root, entry))));

const unused = [];
for (const file of program.getSourceFiles()) {
  if (!checked(file)) continue;
  const path = relative(root, file.fileName);
  const moduleSymbol = checker.getSymbolAtLocation(file);
  if (!moduleSymbol) continue;
  for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
    if (symbol.flags & ts.SymbolFlags.Alias) continue; // a re-export: the declaration is checked where it is
    const name = `${path}: ${symbol.name}`;
    if (!used.has(symbol) && !usedInOwnFile.has(symbol) && !(name in KEPT)) unused.push(name);
  }
}

if (unused.length) {
  process.stderr.write(
    `Exports nothing imports (remove the export, or keep it in scripts/unused-exports.mjs's KEPT saying why):\n${unused.map((name) => `  ${name}\n`).join('')}`,
  );
  process.exit(1);
}
process.stdout.write('No unused exports.\n');
