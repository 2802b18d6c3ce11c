/**
 * Fills a step's request for one site: {@link SCRATCH} becomes that site's scratch collection ID,
 * an {@link AnswerValue} the value it names in that site's earlier answer (a cursor is only good on
 * the site that made it).
 */
import { readPath } from '../../src/request.js';
import { SCRATCH, type AnswerValue, type Json } from './scenario.js';

const isAnswerValue = (value: unknown): value is AnswerValue =>
  typeof value == 'object' && value !== null && typeof (value as AnswerValue).$answer == 'string';

/** Thrown when a step names an answer the site did not give (the step is then skipped on that site). */
export class MissingAnswerValue extends Error {
  override name = 'MissingAnswerValue';
}

/** The request with its placeholders replaced; `answers` are the site's earlier answer bodies, by step name. */
export function fillPlaceholders(request: Json, scratchId: string, answers: ReadonlyMap<string, unknown>): Json {
  if (request === SCRATCH) return scratchId;
  if (isAnswerValue(request)) {
    const value = readPath(answers.get(request.$answer), request.path);
    if (value === undefined || value === null)
      throw new MissingAnswerValue(`"${request.$answer}" gave no ${request.path}`);
    return value as Json;
  }
  if (Array.isArray(request)) return request.map((entry) => fillPlaceholders(entry, scratchId, answers));
  if (request && typeof request == 'object')
    return Object.fromEntries(
      Object.entries(request).map(([key, value]) => [key, fillPlaceholders(value, scratchId, answers)]),
    );
  return request;
}
