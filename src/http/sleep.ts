import type { Abortable } from './abort.js';

/** Waits `ms`, or rejects with the abort reason as soon as `abort` fires. */
export function sleep(ms: number, abort?: Abortable): Promise<void> {
  if (abort?.aborted) return Promise.reject(abort.reason);
  return new Promise((resolve, reject) => {
    const remove = abort?.onAbort((reason) => {
      clearTimeout(timer);
      reject(reason);
    });
    const timer = setTimeout(() => {
      remove?.();
      resolve();
    }, ms);
  });
}
