import { AbortedError, TimeoutError } from '../errors/index.js';

/** One call's cancellation: the caller's signal combined with its time limit (retries included). */
export interface Deadline {
  readonly signal: AbortSignal;
  /** False when nothing can abort the call (no caller signal, no time limit): then fetch is not given a signal at all, which is measurably cheaper. */
  readonly live: boolean;
  /** The typed error for why `signal` aborted. */
  error(): AbortedError | TimeoutError;
  /** Releases the timer. */
  done(): void;
}

/** Combines an optional caller signal with an optional time limit. */
export function deadline(callerSignal: AbortSignal | undefined, timeoutMs: number | undefined): Deadline {
  const limited = timeoutMs !== undefined && timeoutMs > 0 && timeoutMs < Infinity;
  if (!callerSignal && !limited) return NEVER;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onAbort = () => controller.abort(callerSignal!.reason);
  if (callerSignal?.aborted) controller.abort(callerSignal.reason);
  else callerSignal?.addEventListener('abort', onAbort, { once: true });
  if (limited) timer = setTimeout(() => controller.abort(new TimeoutError(timeoutMs)), timeoutMs);
  return {
    signal: controller.signal,
    live: true,
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

/** The deadline of a call that nothing can abort (shared: it holds no state). */
const NEVER: Deadline = {
  signal: new AbortController().signal,
  live: false,
  error: () => new AbortedError(),
  done: () => {},
};
