/**
 * Loading code on first use: the parts of the SDK most pages never need (sign-in flows, the upload
 * driver, event processing, jose) are separate chunks, imported the first time they are called.
 */
import { NetworkError } from './errors/index.js';

/**
 * A function that imports a module on its first call and returns the same promise afterwards. A
 * chunk that cannot be fetched is a network failure: it rejects with `NetworkError`, and the next
 * call tries again.
 *
 * @example
 * const loadUpload = loadOnFirstUse(() => import('./upload.js'));
 * const { upload } = await loadUpload();
 */
export function loadOnFirstUse<Module>(load: () => Promise<Module>): () => Promise<Module> {
  let loading: Promise<Module> | undefined;
  return () =>
    (loading ??= load().catch((cause: unknown) => {
      loading = undefined;
      throw new NetworkError({ cause });
    }));
}
