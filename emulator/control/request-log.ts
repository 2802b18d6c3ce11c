/** The request log (`GET /_emulator/requests`): the most recent requests, kept in memory. */

/** One logged request. */
export interface LoggedRequest {
  requestId: string;
  /** ISO time the request arrived. */
  time: string;
  method: string;
  /** Path without the query string (which may hold tokens in `.r`). */
  path: string;
  /** The operation of the route table, when the path was one. */
  operationId?: string;
  status: number;
  durationMs: number;
  /** `visitor`, `member:<id>`, `elevated`, or `anonymous`. */
  caller: string;
}

/** A bounded log, newest first. */
export interface RequestLog {
  add(entry: LoggedRequest): void;
  /** Newest first, at most `limit`. */
  list(limit?: number): LoggedRequest[];
  clear(): void;
}

/** Keeps the last `capacity` requests. */
export function createRequestLog(capacity = 1000): RequestLog {
  let entries: LoggedRequest[] = [];
  return {
    add(entry) {
      entries.push(entry);
      // Trim in batches so a busy emulator does not shift the array on every request.
      if (entries.length > capacity * 1.5) entries = entries.slice(-capacity);
    },
    list: (limit = capacity) => entries.slice(-Math.min(limit, capacity)).reverse(),
    clear: () => void (entries = []),
  };
}
