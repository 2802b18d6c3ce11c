// The emulator's server packages (Fastify with its schema validator, the TUS upload server), bundled
// into the package's build so that an app that installed only sitekit-sdk runs the emulator: their
// dependency trees (about fifty packages) would not fit the install footprint as dependencies.
//
// esbuild bundles each group once into a CommonJS file under dist/vendor/ (CommonJS is what these
// packages are written in, so their `require`s, `__dirname` and JSON files work as in node_modules),
// and a rollup plugin points the emulator's imports of the packages at those files: the ESM and the
// CommonJS builds of the emulator share one copy. The uploads group is its own file because the
// emulator loads it on the first resumable upload only, not at start. The files are minified (names
// kept): they are other projects' code, and the install footprint counts every byte. Their licenses
// go beside them, in vendor/LICENSES.md.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, sep } from 'node:path';
import { build } from 'esbuild';

/**
 * The bundled files, by group: the packages each holds, with the named exports the emulator imports
 * from each (a default import is the package's `module.exports`, as Node gives it to ESM).
 */
const GROUPS = {
  server: { fastify: [], '@fastify/ajv-compiler': [] },
  uploads: { '@tus/server': ['Server'], '@tus/file-store': ['FileStore'] },
};

/** The group of a bundled package's import name, or undefined. */
const groupOf = (id) => Object.keys(GROUPS).find((group) => Object.hasOwn(GROUPS[group], id));

/** The CommonJS source of one group: a module whose exports are the packages' exports, by package name. */
function groupEntry(group) {
  const members = Object.keys(GROUPS[group]).map(
    (name) => `  ${JSON.stringify(name)}: require(${JSON.stringify(name)}),`,
  );
  return `module.exports = {\n${members.join('\n')}\n};\n`;
}

/** Bundles one group with esbuild (memoized: the ESM and CommonJS builds share it): its code and its packages' folders. */
const bundled = new Map();
function bundleGroup(group) {
  if (!bundled.has(group))
    bundled.set(
      group,
      build({
        stdin: { contents: groupEntry(group), resolveDir: process.cwd(), sourcefile: `${group}-packages.cjs` },
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target: 'node20',
        write: false,
        metafile: true,
        minify: true,
        // Fastify and avvio name plugins and hooks by their functions' names in errors.
        keepNames: true,
        legalComments: 'none',
        logLevel: 'warning',
      }).then((result) => ({
        code: result.outputFiles[0].text,
        packages: Object.keys(result.metafile.inputs).map(packageFolder).filter(Boolean),
      })),
    );
  return bundled.get(group);
}

/** The folder of the package a bundled file (`node_modules/x/lib/y.js`) belongs to, or null. */
function packageFolder(input) {
  const parts = input.split(/[\\/]/);
  const modules = parts.lastIndexOf('node_modules');
  if (modules < 0) return null;
  return parts.slice(0, modules + (parts[modules + 1].startsWith('@') ? 3 : 2)).join(sep);
}

/** The license notice of every bundled package (once per name and version): its license file. */
function licenses(folders) {
  const sections = new Map();
  for (const folder of new Set(folders)) {
    const { name, version, license } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    const file = readdirSync(folder).find((entry) => /^licen[cs]e/i.test(entry));
    const text = file
      ? readFileSync(join(folder, file), 'utf8').trim()
      : `${license} (the package ships no license file)`;
    sections.set(`${name}@${version}`, `## ${name}@${version} (${license})\n\n${text}\n`);
  }
  const sorted = [...sections].sort(([a], [b]) => a.localeCompare(b)).map(([, section]) => section);
  return `# Licenses of the packages bundled in this folder\n\n${sorted.join('\n')}`;
}

/** The modules standing for the packages, and the marker of the bundled files' paths until rendering. */
const VIRTUAL = '\0sitekit-server-package:';
const VENDOR = 'sitekit-vendor/';

/**
 * The rollup plugin: `import Fastify from 'fastify'` (and the others) become imports of the group's
 * bundled file in the output's `vendor/`, which it emits.
 */
export function bundledServerPackages() {
  const file = (group) => `${VENDOR}${group}-packages.cjs`;
  return {
    name: 'sitekit-server-packages',
    resolveId(source) {
      if (groupOf(source)) return VIRTUAL + source;
      return source.startsWith(VENDOR) ? { id: source, external: true } : null;
    },
    load(id) {
      if (!id.startsWith(VIRTUAL)) return null;
      const name = id.slice(VIRTUAL.length);
      const group = groupOf(name);
      // A default import of a CommonJS file is its `module.exports`, in Node's ESM and in rollup's
      // CommonJS output alike (the bundle sets no `__esModule`).
      const named = GROUPS[group][name].map((key) => `export const ${key} = bundled.${key};\n`);
      return `import packages from ${JSON.stringify(file(group))};\nconst bundled = packages[${JSON.stringify(name)}];\nexport default bundled;\n${named.join('')}`;
    },
    // The bundled files' paths, relative to each chunk (entries are in the output's root, chunks deeper).
    renderChunk(code, chunk) {
      const up = posix.relative(dirname(chunk.fileName), '.') || '.';
      return { code: code.replace(/(['"])sitekit-vendor\//g, `$1${up}/vendor/`), map: null };
    },
    async generateBundle() {
      const names = Object.keys(GROUPS);
      const groups = await Promise.all(names.map(bundleGroup));
      for (const [index, group] of names.entries())
        this.emitFile({ type: 'asset', fileName: `vendor/${group}-packages.cjs`, source: groups[index].code });
      this.emitFile({
        type: 'asset',
        fileName: 'vendor/LICENSES.md',
        source: licenses(groups.flatMap((bundle) => bundle.packages)),
      });
    },
  };
}
