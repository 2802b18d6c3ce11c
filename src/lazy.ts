/**
 * Loading code on first use: the whole features most pages never need (the sign-in flows, uploads,
 * webhook processing...) are separate chunks, imported the first time one of their methods is
 * called. The one loader of the SDK; which features load this way, and why, is in src/README.md.
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

/**
 * Methods named `names` of the object `load` resolves, usable before it has loaded: each loads it
 * on its first call and then calls its method of the same name.
 *
 * @example
 * const { login, register } = lazyMethods(loadSignIn, ['login', 'register'] as const);
 */
export function lazyMethods<Methods, Name extends keyof Methods>(
  load: () => Promise<Methods>,
  names: readonly Name[],
): Pick<Methods, Name> {
  const methods = {} as Record<Name, (...args: unknown[]) => Promise<unknown>>;
  for (const name of names)
    methods[name] = async (...args) => ((await load())[name] as (...args: unknown[]) => Promise<unknown>)(...args);
  return methods as Pick<Methods, Name>;
}
