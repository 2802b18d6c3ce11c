import type { Metafile } from 'esbuild';

/**
 * The output files (metafile keys) loaded eagerly by the output of `entryPoint` (the entry's path
 * as esbuild reports it, or any suffix of it, e.g. `src/events/index.ts`): that output and every
 * chunk it imports statically, transitively.
 */
export function eagerOutputs(metafile: Metafile, entryPoint: string): Set<string>;
