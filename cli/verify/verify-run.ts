/**
 * One run of `sitekit-sdk verify`: each step sent to the live site (or read from a recording)
 * and to the emulator, both answers normalized and compared, the live one checked against the
 * schema. Owns the scratch collection's life on both sites: it is removed at the end, after a
 * failure, and when the run is interrupted (Ctrl-C).
 */
import type { OperationId } from '../../generated/operations.js';
import { answerDifferences, type Difference } from './answer-differences.js';
import { normalizedAnswer, type SiteFacts } from './answer-normalizing.js';
import { fillPlaceholders, MissingAnswerValue } from './request-placeholders.js';
import type { RecordedStep } from './recording.js';
import { REMOVE_SCRATCH, type Step } from './scenario.js';
import { schemaDrift, type Drift } from './schema-drift.js';
import type { Answer, SiteCaller } from './site-calls.js';

/** One site of a run, as the run calls it. */
export interface Site {
  /** For messages: its URL. */
  description: string;
  caller: SiteCaller;
  facts: SiteFacts;
}

/** What one step found. */
export interface StepResult {
  name: string;
  operationId: OperationId;
  /** `skipped`: a value it needs (a cursor) was not in the live site's earlier answer. */
  outcome: 'same' | 'different' | 'skipped';
  differences: Difference[];
  drift: Drift[];
}

/** The run was interrupted (Ctrl-C) between two steps. */
export class Interrupted extends Error {
  override name = 'Interrupted';
}

/** What a site said to a step, raw and normalized; `undefined` when the step could not be made for it. */
interface Said {
  raw: Answer;
  normalized: Answer;
}

/** One side of the run as it goes: its answers so far (by step name), and whether its scratch collection exists. */
class SiteState {
  readonly answers = new Map<string, unknown>();
  scratchExists = false;
  constructor(readonly site: Site) {}

  /** Sends a step (its placeholders filled for this site); `undefined` when a value it needs is missing. */
  async send(step: Step): Promise<Said | undefined> {
    let request: Record<string, unknown>;
    try {
      request = fillPlaceholders(step.request, this.site.facts.scratchId, this.answers) as Record<string, unknown>;
    } catch (error) {
      if (error instanceof MissingAnswerValue) return undefined;
      throw error;
    }
    const raw = await this.site.caller.send(step.operationId, request, this.site.facts.scratchId);
    this.answers.set(step.name, raw.body);
    if (step.scratch && raw.status < 300) {
      if (step.operationId == 'createDataCollection') this.scratchExists = true;
      if (step.name == REMOVE_SCRATCH) this.scratchExists = false;
    }
    return { raw, normalized: normalizedAnswer(step, raw, this.site.facts) };
  }

  /** Removes the scratch collection if it is still there; says why when it cannot. */
  async removeScratch(): Promise<string | undefined> {
    if (!this.scratchExists) return undefined;
    const { scratchId } = this.site.facts;
    try {
      const answer = await this.site.caller.removeScratch(scratchId);
      if (answer.status < 300) {
        this.scratchExists = false;
        return undefined;
      }
      return `${this.site.description} answered ${answer.status}`;
    } catch (error) {
      return (error as Error).message;
    }
  }
}

/** Runs steps against two sites (or a recording and a site) and keeps what each found. */
export class VerifyRun {
  readonly results: StepResult[] = [];
  /** The live answers, normalized, as a recording keeps them. */
  readonly recorded: RecordedStep[] = [];
  private readonly live: SiteState | undefined;
  private readonly emulator: SiteState;
  private interrupted = false;

  constructor(
    live: Site | undefined,
    emulator: Site,
    /** Told about each step with a difference or drift, as it is found. */
    private readonly report: (result: StepResult) => void,
  ) {
    this.live = live && new SiteState(live);
    this.emulator = new SiteState(emulator);
  }

  /** Stops the run before its next step (Ctrl-C). */
  interrupt(): void {
    this.interrupted = true;
  }

  /** Runs a step against the live site and the emulator; resolves with the live site's raw answer. */
  async step(step: Step): Promise<Answer | undefined> {
    if (!this.live) throw new Error('a run without a live site replays recorded steps');
    if (this.interrupted) throw new Interrupted('interrupted');
    const live = await this.live.send(step);
    if (!live) return this.skip(step);
    const drift = live.raw.status < 300 ? schemaDrift(step.operationId, live.raw.body) : [];
    await this.compare(step, live.normalized, drift);
    return live.raw;
  }

  /** Replays a recorded step: the recording's answer against the emulator's. */
  async replay(recorded: RecordedStep): Promise<void> {
    if (this.interrupted) throw new Interrupted('interrupted');
    await this.compare(recorded, recorded.answer, []);
  }

  /** Whether a scratch collection of this run is still on the live site. */
  get liveScratchExists(): boolean {
    return this.live?.scratchExists ?? false;
  }

  /** Removes the scratch collection from both sites where it is still there; the problems, worded. */
  async removeScratch(): Promise<string[]> {
    const problems: string[] = [];
    for (const state of [this.live, this.emulator]) {
      const problem = await state?.removeScratch();
      if (problem)
        problems.push(
          `could not remove the scratch collection ${state!.site.facts.scratchId} from ${state!.site.description} (${problem}): remove it by hand`,
        );
    }
    return problems;
  }

  private async compare(step: Step, live: Answer, drift: Drift[]): Promise<void> {
    const emulator = await this.emulator.send(step);
    if (!emulator) {
      this.skip(step);
      return;
    }
    const differences = answerDifferences(live, emulator.normalized);
    const result: StepResult = {
      name: step.name,
      operationId: step.operationId,
      outcome: differences.length ? 'different' : 'same',
      differences,
      drift,
    };
    this.results.push(result);
    this.recorded.push({ ...step, answer: live });
    if (differences.length || drift.length) this.report(result);
  }

  private skip(step: Step): undefined {
    this.results.push({
      name: step.name,
      operationId: step.operationId,
      outcome: 'skipped',
      differences: [],
      drift: [],
    });
    return undefined;
  }
}
