import { AbortedError, isSiteKitError, TimeoutError, type SiteKitError } from '../errors/index.js';
import { AbortScope, type Abortable } from './abort.js';

/**
 * The error for a caller's signal that fired: a `TimeoutError` when it was a time limit
 * (`AbortSignal.timeout()`, whose reason is named `TimeoutError`), the sitekit error itself when
 * the signal came from another sitekit deadline, an `AbortedError` otherwise.
 */
export function callerAbortError(reason: unknown, operation?: string): SiteKitError {
  if (isSiteKitError(reason)) return reason;
  if ((reason as { name?: unknown } | null)?.name === 'TimeoutError') return new TimeoutError(undefined, { cause: reason, operation });
  return new AbortedError({ cause: reason, operation });
}

/** One call's cancellation as an `AbortSignal` (for flows that hand a signal on to others). */
export interface Deadline {
  readonly signal: AbortSignal;
  /** False when nothing can abort the call (no caller signal, no time limit). */
  readonly live: boolean;
  /** The typed error for why `signal` aborted. */
  error(): SiteKitError;
  /** Releases the timer. */
  done(): void;
}

/** A time limit is set when it is a positive finite number of milliseconds (`0` or `Infinity`: none). */
export const isLimit = (ms: number | undefined): ms is number => ms !== undefined && ms > 0 && ms < Infinity;

/** Combines an optional caller signal with an optional time limit into one `AbortSignal`. */
export function deadline(callerSignal: AbortSignal | undefined, timeoutMs: number | undefined): Deadline {
  const limited = isLimit(timeoutMs);
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
    error: () => (callerSignal?.aborted ? callerAbortError(callerSignal.reason) : (controller.signal.reason as TimeoutError)),
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

/** The abort reason of an attempt that used up its own time limit (the call may try again). */
export class AttemptTimeout {
  constructor(readonly timeoutMs: number) {}
}

/** One attempt's cancellation: the call's, plus the attempt's own time limit. */
export interface AttemptScope {
  readonly abort: Abortable;
  /** Releases the attempt's timer and its link to the call. */
  end(): void;
}

/**
 * The transport's cancellation of one call: the caller's signal and the call's time limit (which
 * covers every attempt and every wait between them), and a shorter time limit per attempt. Its
 * abort reasons are already the typed errors the call rejects with.
 */
export class CallDeadline {
  /** Aborted when the call must end: the caller's signal or the call's time limit. */
  readonly abort = new AbortScope();
  private readonly timer: ReturnType<typeof setTimeout> | undefined;
  private readonly removeCallerListener: (() => void) | undefined;

  constructor(callerSignal: AbortSignal | undefined, timeoutMs: number, operation: string) {
    if (callerSignal?.aborted) this.abort.abort(callerAbortError(callerSignal.reason, operation));
    else if (callerSignal) {
      const onAbort = () => this.abort.abort(callerAbortError(callerSignal.reason, operation));
      callerSignal.addEventListener('abort', onAbort, { once: true });
      this.removeCallerListener = () => callerSignal.removeEventListener('abort', onAbort);
    }
    if (isLimit(timeoutMs)) this.timer = setTimeout(() => this.abort.abort(new TimeoutError(timeoutMs, { operation })), timeoutMs);
  }

  /** Starts an attempt limited to `attemptTimeoutMs` (`0`: only the call's limit applies). */
  attempt(attemptTimeoutMs: number): AttemptScope {
    const abort = new AbortScope();
    const unlink = this.abort.onAbort((reason) => abort.abort(reason));
    const timer = isLimit(attemptTimeoutMs) ? setTimeout(() => abort.abort(new AttemptTimeout(attemptTimeoutMs)), attemptTimeoutMs) : undefined;
    return {
      abort,
      end: () => {
        unlink();
        clearTimeout(timer);
      },
    };
  }

  /** Releases the timer and the caller's signal. */
  finish(): void {
    clearTimeout(this.timer);
    this.removeCallerListener?.();
  }
}
