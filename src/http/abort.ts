/**
 * A light abort signal for the transport's own use. Node's `AbortSignal` is an `EventTarget`:
 * adding and removing one listener costs microseconds, several times per call. The transport
 * aborts its attempts through this instead, and turns it into a real `AbortSignal` only where
 * one is needed (for `fetch`).
 */

/** What a handler needs to stop a request: whether and why it was aborted, and a way to hear of it. */
export interface Abortable {
  readonly aborted: boolean;
  /** Why it was aborted (a sitekit error, or the marker of an attempt's time limit). */
  readonly reason: unknown;
  /** Calls `listener` once when aborted (at once if it already is); returns a function that removes it. */
  onAbort(listener: (reason: unknown) => void): () => void;
}

const nothingToRemove = (): void => {};

/** An {@link Abortable} that is aborted by calling {@link AbortScope.abort}. */
export class AbortScope implements Abortable {
  aborted = false;
  reason: unknown = undefined;
  private listeners: ((reason: unknown) => void)[] = [];

  onAbort(listener: (reason: unknown) => void): () => void {
    if (this.aborted) {
      listener(this.reason);
      return nothingToRemove;
    }
    this.listeners.push(listener);
    return () => {
      const index = this.listeners.indexOf(listener);
      if (index >= 0) this.listeners.splice(index, 1);
    };
  }

  /** Aborts with `reason` (only the first call counts) and tells every listener. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener(reason);
  }
}

/** A standard `AbortSignal` that aborts with `abortable` (for `fetch`, which takes nothing else). */
export function toAbortSignal(abortable: Abortable): AbortSignal {
  const controller = new AbortController();
  abortable.onAbort((reason) => controller.abort(reason));
  return controller.signal;
}

/** `promise`, or a rejection with the abort reason as soon as `abortable` aborts. */
export function unlessAborted<T>(promise: Promise<T>, abortable: Abortable): Promise<T> {
  if (abortable.aborted) return Promise.reject(abortable.reason);
  return new Promise<T>((resolve, reject) => {
    const remove = abortable.onAbort(reject);
    promise.then(resolve, reject).finally(remove);
  });
}
