import { AbortedError, TimeoutError } from '../errors/index.js';

/** One call's cancellation: the caller's signal combined with its time limit (retries included). */
export interface Deadline {
  readonly signal: AbortSignal;
  /** The typed error for why `signal` aborted. */
  error(): AbortedError | TimeoutError;
  /** Releases the timer. */
  done(): void;
}

/** Combines an optional caller signal with an optional time limit. */
export function deadline(callerSignal: AbortSignal | undefined, timeoutMs: number | undefined): Deadline {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onAbort = () => controller.abort(callerSignal!.reason);
  if (callerSignal?.aborted) controller.abort(callerSignal.reason);
  else callerSignal?.addEventListener('abort', onAbort, { once: true });
  if (timeoutMs !== undefined && timeoutMs > 0 && timeoutMs < Infinity) {
    timer = setTimeout(() => controller.abort(new TimeoutError(timeoutMs)), timeoutMs);
  }
  return {
    signal: controller.signal,
    error: () =>
      callerSignal?.aborted
        ? new AbortedError({ cause: callerSignal.reason })
        : (controller.signal.reason as TimeoutError),
    done: () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onAbort);
    },
  };
}
