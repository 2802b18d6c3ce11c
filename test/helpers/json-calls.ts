/**
 * Raw JSON calls to the emulator, for the tests that probe its answers below the SDK (hostile
 * inputs, hidden fields, token misuse): the status, the parsed body, and the fields a 400 names.
 */
import type { TestEmulator } from './emulator.js';

/** One field violation of a 400 answer (`details.validationError.fieldViolations`). */
export interface Violation {
  field: string;
  violatedRule: string;
}

/** An answer: its status and its JSON body (`{}` when the body is empty), read as the test needs. */
export interface Answer {
  status: number;
  body: Record<string, any>;
}

/** What a call sends besides its method and path. */
export interface JsonCallOptions {
  /** Sent as JSON (a string is sent as it is); none when undefined. */
  body?: unknown;
  /** The `authorization` header; none when undefined. */
  authorization?: string;
}

/** Sends `method path` to the emulator and reads its JSON answer. */
export async function callJson(
  emulator: TestEmulator,
  method: string,
  path: string,
  { body, authorization }: JsonCallOptions = {},
): Promise<Answer> {
  const response = await emulator.fetch(path, {
    method,
    headers: {
      ...(authorization === undefined ? {} : { authorization }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: typeof body == 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

/** The fields a 400 answer's violations name, in order (undefined when it names none). */
export const violatedFields = (answer: Answer): string[] | undefined =>
  (answer.body.details?.validationError?.fieldViolations as Violation[] | undefined)?.map(
    (violation) => violation.field,
  );
