/** loadOnFirstUse: one import, shared; a failed load is a NetworkError and is tried again. */
import { describe, expect, it, vi } from 'vitest';
import { isNetworkError } from '../../src/errors/index.js';
import { loadOnFirstUse } from '../../src/lazy.js';

describe('loadOnFirstUse', () => {
  it('imports once, on the first call, and shares the result', async () => {
    const load = vi.fn(async () => ({ answer: 42 }));
    const loader = loadOnFirstUse(load);
    expect(load).not.toHaveBeenCalled();
    const [first, second] = await Promise.all([loader(), loader()]);
    expect(first).toBe(second);
    expect(first.answer).toBe(42);
    await loader();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a failed load rejects with NetworkError (the cause kept) and the next call tries again', async () => {
    const cause = new TypeError('Failed to fetch dynamically imported module');
    const load = vi.fn().mockRejectedValueOnce(cause).mockResolvedValueOnce({ ok: true });
    const loader = loadOnFirstUse(load as () => Promise<{ ok: boolean }>);
    const error = await loader().catch((e: unknown) => e);
    expect(isNetworkError(error)).toBe(true);
    expect((error as Error).cause).toBe(cause);
    expect(await loader()).toEqual({ ok: true });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
