/** What an installed app's node_modules holds (see check-install.mjs). */
export interface Footprint {
  /** Each package's folder, relative to the measured folder (`sitekit-sdk`, `@scope/name`, `a/node_modules/b`). */
  packages: string[];
  /** The sizes of its files added up, symbolic links not followed. */
  bytes: number;
  /** Its native files (`*.node`), relative to the measured folder. */
  native: string[];
}

/** Measures a node_modules folder. */
export function measureNodeModules(folder: string): Footprint;
