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
  /** Stops the timer running now: the first attempt's (which then starts the call's) or the call's. */
  private stopTimer: (() => void) | undefined;
  private readonly removeCallerListener: (() => void) | undefined;
  /**
   * The first attempt's limit when it ends before the call's: one timer serves both (see
   * `startFirstLeg`); 0 when the first attempt gets a timer of its own.
   */
  private readonly firstLegMs: number;
  /** The first attempt's scope while it runs on the shared timer. */
  private firstAttempt: AbortScope | undefined;
  private attempts = 0;

  /** `attemptTimeoutMs`: the limit of each attempt the call will start (`0`: none). */
  constructor(callerSignal: AbortSignal | undefined, timeoutMs: number, operation: string, attemptTimeoutMs = 0) {
    this.canAbort = callerSignal !== undefined || isLimit(timeoutMs);
    if (callerSignal?.aborted) this.abort.abort(callerAbortError(callerSignal.reason, operation));
    else if (callerSignal) {
      const onAbort = () => this.abort.abort(callerAbortError(callerSignal.reason, operation));
      // Stryker disable next-line ObjectLiteral,BooleanLiteral: a signal aborts once; `once` only lets the listener go early
      callerSignal.addEventListener('abort', onAbort, { once: true });
      this.removeCallerListener = () => callerSignal.removeEventListener('abort', onAbort);
    }
    const expire = () => this.abort.abort(new TimeoutError(timeoutMs, { operation }));
    const shared = isLimit(timeoutMs) && isLimit(attemptTimeoutMs) && attemptTimeoutMs < timeoutMs;
    this.firstLegMs = shared ? attemptTimeoutMs : 0;
    if (shared) this.startFirstLeg(attemptTimeoutMs, timeoutMs, expire);
    else if (isLimit(timeoutMs)) this.stopTimer = startTimer(timeoutMs, expire);
  }

  /**
   * One timer for the first attempt's limit and the call's, where a call started two (a timer
   * started and stopped around a request costs some µs of CPU on Node, and most calls end in
   * their first attempt): it fires at the first attempt's limit, ends that attempt if it still
   * runs, and starts the call's timer for the rest of the call's limit. Both start together, so
   * no clock is read: the timers alone measure the time, as a test's fake `setTimeout` has it.
   */
  private startFirstLeg(attemptTimeoutMs: number, timeoutMs: number, expire: () => void): void {
    this.stopTimer = startTimer(attemptTimeoutMs, () => {
      this.firstAttempt?.abort(new AttemptTimeout(attemptTimeoutMs));
      this.stopTimer = startTimer(timeoutMs - attemptTimeoutMs, expire);
    });
  }

  /** Starts an attempt limited to `attemptTimeoutMs` (`0`: only the call's limit applies). */
  attempt(attemptTimeoutMs: number): AttemptScope {
    const abort = new AbortScope();
    const unlink = this.abort.onAbort((reason) => abort.abort(reason));
    this.attempts++;
    if (this.attempts === 1 && this.firstLegMs > 0 && attemptTimeoutMs === this.firstLegMs) {
      this.firstAttempt = abort;
      return {
        abort,
        canAbort: true,
        end: () => {
          unlink();
          this.firstAttempt = undefined;
        },
      };
    }
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
