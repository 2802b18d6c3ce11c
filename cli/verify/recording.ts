/**
 * A recording (`--record <dir>`, `--replay <dir>`): the steps of a run against a live site with
 * its normalized answers, so an emulator can be compared with that site offline, with no
 * credentials. It holds no credentials (requests are the steps' own, with their placeholders) and
 * no personal data (members' answers are anonymized before they are kept).
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { operations } from '../../generated/operations.js';
import type { Step } from './scenario.js';
import type { Answer } from './site-calls.js';

/** A step as recorded: the step and the live site's normalized answer. */
export interface RecordedStep extends Step {
  answer: Answer;
}

/** The file a recording directory holds. */
export interface Recording {
  format: 'sitekit-verify-recording';
  version: 1;
  steps: RecordedStep[];
}

/** The file of a recording in its directory. */
export const recordingFile = (dir: string): string => join(dir, 'recording.json');

/** Writes a recording into `dir` (created when missing), whole or not at all. */
export async function writeRecording(dir: string, steps: readonly RecordedStep[]): Promise<void> {
  const recording: Recording = { format: 'sitekit-verify-recording', version: 1, steps: [...steps] };
  await mkdir(dir, { recursive: true });
  const path = recordingFile(dir);
  // One step a line: small, and a change of the site shows in a diff as the steps it changed.
  const lines = recording.steps.map((step) => JSON.stringify(step));
  const text = `{"format":"${recording.format}","version":${recording.version},"steps":[\n${lines.join(',\n')}\n]}\n`;
  await writeFile(`${path}.tmp`, text);
  await rename(`${path}.tmp`, path);
}

/** A recording file that cannot be replayed: says which and why. */
export class RecordingError extends Error {
  override name = 'RecordingError';
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value == 'object' && value !== null && !Array.isArray(value);

/** The problem of one recorded step, or `undefined` when it can be replayed. */
function stepProblem(step: unknown): string | undefined {
  if (!isObject(step)) return 'is not an object';
  if (typeof step.name != 'string' || !step.name) return 'has no name';
  if (typeof step.operationId != 'string' || !Object.hasOwn(operations, step.operationId))
    return `names no operation of the schema (${String(step.operationId)})`;
  if (!isObject(step.request)) return 'has no request object';
  if (!isObject(step.answer) || typeof step.answer.status != 'number') return 'has no answer with a status';
  return undefined;
}

/** Reads and checks the recording in `dir`. */
export async function readRecording(dir: string): Promise<RecordedStep[]> {
  const path = recordingFile(dir);
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new RecordingError(`cannot read the recording ${path}: ${(error as Error).message}`);
  }
  if (!isObject(parsed) || parsed.format !== 'sitekit-verify-recording' || parsed.version !== 1)
    throw new RecordingError(`${path} is not a sitekit verify recording of version 1`);
  if (!Array.isArray(parsed.steps)) throw new RecordingError(`${path} has no steps`);
  parsed.steps.forEach((step, index) => {
    const problem = stepProblem(step);
    if (problem) throw new RecordingError(`${path}: step ${index} ${problem}`);
  });
  return parsed.steps as RecordedStep[];
}
