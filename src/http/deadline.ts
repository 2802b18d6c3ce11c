import { AbortedError, isSiteKitError, TimeoutError, type SiteKitError } from '../errors/index.js';
import { AbortScope, toAbortSignal, type Abortable } from './abort.js';
import { startTimer } from './timer.js';

/**
 * The error for a caller's signal that fired: a `TimeoutError` when it was a time limit
 * (`AbortSignal.timeout()`, whose reason is named `TimeoutError`), the sitekit error itself when
 * the signal came from another sitekit deadline, an `AbortedError` otherwise.
 */
export function callerAbortError(reason: unknown, operation?: string): SiteKitError {
  if (isSiteKitError(reason)) return reason;
  if ((reason as { name?: unknown } | null)?.name === 'TimeoutError')
    return new TimeoutError(undefined, { cause: reason, operation });
  return new AbortedError({ cause: reason, operation });
}

/** A time limit is set when it is a positive finite number of milliseconds (`0` or `Infinity`: none). */
const isLimit = (ms: number): boolean => ms > 0 && ms < Infinity;

/** The abort reason of an attempt that used up its own time limit (the call may try again). */
export class AttemptTimeout {
  constructor(readonly timeoutMs: number) {}
}

/** One attempt's cancellation: the call's, plus the attempt's own time limit. */
export interface AttemptScope {
  readonly abort: Abortable;
  /** False when nothing can abort it (no caller signal, no time limit): handlers need not watch it. */
  readonly canAbort: boolean;
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
  /** Whether anything can end the call early: a caller's signal or a time limit. */
  readonly canAbort: boolean;
  private readonly stopTimer: (() => void) | undefined;
  private readonly removeCallerListener: (() => void) | undefined;

  constructor(callerSignal: AbortSignal | undefined, timeoutMs: number, operation: string) {
    this.canAbort = callerSignal !== undefined || isLimit(timeoutMs);
    if (callerSignal?.aborted) this.abort.abort(callerAbortError(callerSignal.reason, operation));
    else if (callerSignal) {
      const onAbort = () => this.abort.abort(callerAbortError(callerSignal.reason, operation));
      callerSignal.addEventListener('abort', onAbort, { once: true });
      this.removeCallerListener = () => callerSignal.removeEventListener('abort', onAbort);
    }
    if (isLimit(timeoutMs))
      this.stopTimer = startTimer(timeoutMs, () => this.abort.abort(new TimeoutError(timeoutMs, { operation })));
  }

  /** Starts an attempt limited to `attemptTimeoutMs` (`0`: only the call's limit applies). */
  attempt(attemptTimeoutMs: number): AttemptScope {
    const abort = new AbortScope();
    const unlink = this.abort.onAbort((reason) => abort.abort(reason));
    const stopTimer = isLimit(attemptTimeoutMs)
      ? startTimer(attemptTimeoutMs, () => abort.abort(new AttemptTimeout(attemptTimeoutMs)))
      : undefined;
    return {
      abort,
      canAbort: this.canAbort || stopTimer !== undefined,
      end: () => {
        unlink();
        stopTimer?.();
      },
    };
  }

  /** Releases the timer and the caller's signal. */
  finish(): void {
    this.stopTimer?.();
    this.removeCallerListener?.();
  }
}

/** One call's cancellation as an `AbortSignal`, for flows that hand a signal on to others. */
export interface Deadline {
  readonly signal: AbortSignal;
  /** The typed error for why `signal` aborted (a `TimeoutError` or an `AbortedError`). */
  error(): SiteKitError;
  /** Releases the timer and the caller's signal. */
  done(): void;
}

/**
 * Combines an optional caller signal with an optional time limit into one `AbortSignal` whose
 * reason is already the typed error (the same {@link CallDeadline} the transport uses).
 */
export function deadline(
  callerSignal: AbortSignal | undefined,
  timeoutMs: number | undefined,
  operation = '',
): Deadline {
  const call = new CallDeadline(callerSignal, timeoutMs ?? 0, operation);
  return {
    signal: toAbortSignal(call.abort),
    error: () => call.abort.reason as SiteKitError,
    done: () => call.finish(),
  };
}
