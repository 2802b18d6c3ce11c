// The chunks an app loads eagerly: the entry's output and every chunk it imports statically,
// transitively. Chunks reached only through `import()` load on first use. Shared by the size
// budget (scripts/size.mjs) and the bundle tests.
import { resolve } from 'node:path';

/**
 * The output files (metafile keys) loaded eagerly by the output of `entryPoint` (the entry's path
 * as esbuild reports it, or any suffix of it, e.g. `src/events/index.ts`).
 */
export function eagerOutputs(metafile, entryPoint) {
  const outputs = metafile.outputs;
  const entry = Object.keys(outputs).find((name) => {
    const point = outputs[name].entryPoint;
    return (
      point !== undefined &&
      (point === entryPoint || point.endsWith(entryPoint) || resolve(point) === resolve(entryPoint))
    );
  });
  if (entry === undefined) throw new Error(`no output has the entry point ${entryPoint}`);
  // Import paths are relative to the working directory, like the metafile's keys.
  const key = (path) => Object.keys(outputs).find((name) => resolve(name) === resolve(path)) ?? path;
  const eager = new Set();
  const visit = (name) => {
    if (eager.has(name)) return;
    eager.add(name);
    for (const imported of outputs[name].imports)
      if (imported.kind === 'import-statement' && !imported.external) visit(key(imported.path));
  };
  visit(entry);
  return eager;
}
