/** The request log (`GET /_emulator/requests`): the most recent requests, kept in memory. */
import { decisiveDecision, explainDecision, type Decision } from '../auth/decisions.js';
import type { LoggedCaller, LoggedRequest, RequestFilter } from './api.js';
import { redactedText } from './logged-bodies.js';
import type { Caller, EmulatorContext } from '../service.js';
import { perSite } from '../per-site.js';

export type { LoggedCaller, LoggedRequest, RequestFilter };

/**
 * What the server records per request: plain facts, turned into {@link LoggedRequest} only when
 * read (the time written out, the path cut from the URL, the duration rounded, the caller and the
 * decisions put in words). Every field is always present (undefined when it does not apply), so
 * every record has one shape.
 */
export interface RequestRecord {
  requestId: string;
  /** When the request arrived, in milliseconds since the epoch. */
  receivedAt: number;
  method: string;
  /** The request's URL: the log shows its path, never its query string (which may hold tokens in `.r`). */
  url: string;
  operationId: string | undefined;
  status: number;
  /** Unrounded. */
  durationMs: number;
  caller: Caller | undefined;
  decisions: readonly Decision[] | undefined;
  faultId: string | undefined;
  /** Whether the fault rule answered (or dropped) the request, rather than only delaying it. */
  faultAnswered: boolean | undefined;
  /** Written out once when logged, secrets redacted, or a note why not (`logged-bodies.ts`). */
  requestBody: string | undefined;
  responseBody: string | undefined;
}

/** The path of a request URL: without its query string. */
export const pathOf = (url: string): string => {
  const queryStart = url.indexOf('?');
  return queryStart < 0 ? url : url.slice(0, queryStart);
};

/** A bounded log, newest first. */
export interface RequestLog {
  add(entry: RequestRecord): void;
  /** Newest first, at most `limit` (or the filter's `limit`), matching the filter. */
  list(limit?: number | RequestFilter): LoggedRequest[];
  clear(): void;
}

/**
 * How many characters of bodies one read of the log answers. A body is at most 32 KiB written out,
 * so a full log of them would be a 64 MB answer, which took half a second to serialize and send:
 * the bodies of the newest requests fill this, older ones are answered as a note.
 */
export const BODY_CHARACTERS_PER_READ = 2 * 1024 * 1024;

/** What a body past {@link BODY_CHARACTERS_PER_READ} is answered as. */
const pastTheRead = (text: string) =>
  `(${text.length} characters, not in this answer: the newer requests' bodies filled it; ask for fewer requests or filter)`;

/**
 * A record in its public form: the caller's identity only, the decisions in words, and its bodies
 * while `budget` (characters of bodies this read may still answer) lasts; answers what is left of it.
 */
function present(record: RequestRecord, budget: number): { entry: LoggedRequest; budget: number } {
  const { caller, decisions, operationId, faultId, faultAnswered } = record;
  const entry: LoggedRequest = {
    requestId: record.requestId,
    time: new Date(record.receivedAt).toISOString(),
    method: record.method,
    // A path may hold a secret (an upload URL's ticket): shown redacted, as the bodies.
    path: redactedText(pathOf(record.url)),
    ...(operationId ? { operationId } : {}),
    status: record.status,
    durationMs: Math.round(record.durationMs * 100) / 100,
    ...(faultId ? { faultId } : {}),
    ...(faultId && faultAnswered ? { faultAnswered } : {}),
  };
  if (caller) {
    entry.caller = { kind: caller.kind, authenticated: caller.authenticated };
    if (caller.memberId) entry.caller.memberId = caller.memberId;
    if (caller.visitorId) entry.caller.visitorId = caller.visitorId;
  }
  const decisive = decisiveDecision(decisions);
  if (decisive) entry.decision = explainDecision(decisive);
  if (decisions && decisions.length > 1) entry.decisions = decisions.map(explainDecision);
  let left = budget;
  for (const key of ['requestBody', 'responseBody'] as const) {
    const text = record[key];
    if (text === undefined) continue;
    entry[key] = text.length <= left ? text : pastTheRead(text);
    left -= Math.min(text.length, left);
  }
  return { entry, budget: left };
}

/** Whether a record passes a filter. */
function matches(record: RequestRecord, filter: RequestFilter): boolean {
  if (filter.status !== undefined && record.status != filter.status) return false;
  if (filter.operationId !== undefined && record.operationId != filter.operationId) return false;
  if (filter.path !== undefined && !pathOf(record.url).startsWith(filter.path)) return false;
  if (filter.caller !== undefined) {
    const { caller } = record;
    if (!caller || ![caller.kind, caller.memberId, caller.visitorId].includes(filter.caller)) return false;
  }
  if (filter.faulted !== undefined && (record.faultId !== undefined) != filter.faulted) return false;
  if (filter.refused !== undefined) {
    const refused = record.decisions?.some((decision) => !decision.allowed) ?? false;
    if (refused != filter.refused) return false;
  }
  return true;
}

/**
 * Keeps the last `capacity` requests, in a ring of records rewritten in place: a request's record
 * takes the slot of the request `capacity` before it. A new record object per request, kept for
 * the next thousand requests, was copied by young-generation collections and then promoted.
 */
export function createRequestLog(capacity = 1000): RequestLog {
  let slots: RequestRecord[] = [];
  /** The slot the next request takes. */
  let next = 0;
  return {
    add(entry) {
      if (slots.length < capacity) slots.push({ ...entry });
      else Object.assign(slots[next]!, entry);
      next = (next + 1) % capacity;
    },
    list(limitOrFilter = capacity) {
      const filter = typeof limitOrFilter == 'number' ? { limit: limitOrFilter } : limitOrFilter;
      const limit = Math.min(filter.limit ?? capacity, capacity);
      const found: LoggedRequest[] = [];
      let budget = BODY_CHARACTERS_PER_READ;
      for (let age = 1; age <= slots.length && found.length < limit; age++) {
        const record = slots[(next - age + capacity) % capacity]!;
        if (!matches(record, filter)) continue;
        const presented = present(record, budget);
        found.push(presented.entry);
        budget = presented.budget;
      }
      return found;
    },
    clear() {
      slots = [];
      next = 0;
    },
  };
}

/** The request log of a site (each site logs its own requests), made at its first request. */
export const requestLogOf: (context: EmulatorContext) => RequestLog = perSite(() => createRequestLog());
