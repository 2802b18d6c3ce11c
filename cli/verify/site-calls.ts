/**
 * How `sitekit-sdk verify` calls a site: raw calls (../raw-calls.ts), made safe
 * against a real site: every request is counted against a budget, and a write is sent only when
 * it targets the scratch collection.
 */
import type { OperationId } from '../../generated/operations.js';
import type { ApiKeyAuth, Client } from '../../src/index.js';
import { callRaw, isWrite, type RawAnswer } from '../raw-calls.js';

/** What a site answered: its status, and its JSON body (an error's code only). */
export type Answer = RawAnswer;

/** The run went past its budget of requests (`--max-calls`). */
export class CallBudgetExceeded extends Error {
  override name = 'CallBudgetExceeded';
}

/** Requests sent to one site so far, against a budget. */
export interface CallCount {
  /** Requests sent (429s and their retries included). */
  sent: number;
  /** 429 answers waited out. */
  waits: number;
  readonly budget: number;
  /** Set while the scratch collection is being removed: allowed past the budget, as leaving it on the site would be worse. */
  cleaning?: boolean;
}

/** A `fetch` that counts each request in `count` and refuses the one past its budget, before it is sent. */
export function countedFetch(base: typeof fetch, count: CallCount): typeof fetch {
  return (input, init) => {
    if (count.sent >= count.budget && !count.cleaning)
      return Promise.reject(new CallBudgetExceeded(`the budget of ${count.budget} calls is spent (--max-calls)`));
    count.sent++;
    return base(input, init);
  };
}

/** The collection a write names: its `dataCollectionId`, or the ID of the collection it creates. */
function targetCollection(request: Record<string, unknown>): unknown {
  const collection = request.collection as { id?: unknown } | undefined;
  return request.dataCollectionId ?? collection?.id;
}

/** Sends steps' requests to one site. */
export class SiteCaller {
  constructor(
    /** An elevated client of the site, made with `retry: false` (429s are waited out by `callRaw`, for every call). */
    private readonly client: Client<ApiKeyAuth>,
    private readonly count: CallCount,
    /** Waits (`setTimeout` in the CLI; tests see the waits asked for). */
    private readonly sleep: (ms: number) => Promise<void>,
  ) {}

  /**
   * Sends one call. A write that does not target `scratchId` is refused before anything is sent
   * (it would be a bug of the scenario, and the site is someone's real site).
   */
  async send(operationId: OperationId, request: Record<string, unknown>, scratchId: string): Promise<Answer> {
    if (isWrite(operationId) && targetCollection(request) !== scratchId)
      throw new Error(`refusing to send ${operationId} outside the scratch collection ${scratchId}`);
    return await callRaw(this.client, operationId, request, {
      sleep: this.sleep,
      onWait: () => void this.count.waits++,
    });
  }

  /** Removes the scratch collection, past the budget if need be (see {@link CallCount.cleaning}). */
  async removeScratch(scratchId: string): Promise<Answer> {
    this.count.cleaning = true;
    try {
      return await this.send('deleteDataCollection', { dataCollectionId: scratchId }, scratchId);
    } finally {
      this.count.cleaning = false;
    }
  }
}
