/** How `verify` words what it found: each divergence and drift of a step, and the summary line. */
import type { CallCount } from './site-calls.js';
import type { StepResult } from './verify-run.js';

/** Differences printed per step; the rest are counted (the `--out` report has them all). */
const SHOWN_PER_STEP = 8;

/** A value as printed: JSON, cut at 80 characters; `(absent)` for a missing field. */
function shown(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** The lines of a step with differences or schema drift. */
export function describeResult(result: StepResult): string {
  const lines: string[] = [];
  const title = `${result.name} (${result.operationId})`;
  if (result.differences.length) {
    lines.push(`✗ ${title}: the answers differ`);
    for (const difference of result.differences.slice(0, SHOWN_PER_STEP))
      lines.push(`    ${difference.path}: live ${shown(difference.live)}, emulator ${shown(difference.emulator)}`);
    if (result.differences.length > SHOWN_PER_STEP)
      lines.push(`    ...and ${result.differences.length - SHOWN_PER_STEP} more`);
  }
  for (const drift of result.drift)
    lines.push(
      `✗ schema drift in ${title}: ${drift.field} ${drift.problem}; change ${drift.file} at ${drift.schemaPath}`,
    );
  return `${lines.join('\n')}\n`;
}

const plural = (count: number, word: string): string => `${count} ${word}${count == 1 ? '' : 's'}`;

/** The one line a run ends with: what was compared, what differed, how many calls the live site got. */
export function summaryLine(results: readonly StepResult[], count: CallCount | undefined, note: string): string {
  const tally = (outcome: StepResult['outcome']) => results.filter((result) => result.outcome == outcome).length;
  const drift = results.reduce((total, result) => total + result.drift.length, 0);
  const calls = count
    ? `; ${plural(count.sent, 'call')} to the live site${count.waits ? ` (${plural(count.waits, 'wait')} for a rate limit)` : ''}`
    : '';
  return `${plural(results.length, 'step')}: ${tally('same')} the same, ${tally('different')} different, ${plural(drift, 'schema drift')}, ${tally('skipped')} skipped${calls}; ${note}`;
}
