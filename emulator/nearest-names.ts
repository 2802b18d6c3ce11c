/**
 * The names nearest to a misspelt one, so a refusal can say what was probably meant
 * (`opration` → `operation`; `getDataItm` → `getDataItem`).
 */

/** How many edits (insert, delete, replace one character; case ignored) turn `from` into `to`. */
function editDistance(from: string, to: string): number {
  const left = from.toLowerCase();
  const right = to.toLowerCase();
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row++) {
    const current = [row];
    for (let column = 1; column <= right.length; column++) {
      const replace = previous[column - 1]! + (left[row - 1] == right[column - 1] ? 0 : 1);
      current.push(Math.min(replace, previous[column]! + 1, current[column - 1]! + 1));
    }
    previous = current;
  }
  return previous[right.length]!;
}

/** The (at most) `count` names of `candidates` nearest to `name`, nearest first. */
export function nearestNames(name: string, candidates: Iterable<string>, count = 3): string[] {
  return [...candidates]
    .map((candidate) => ({ candidate, distance: editDistance(name, candidate) }))
    .sort((a, b) => a.distance - b.distance || (a.candidate < b.candidate ? -1 : 1))
    .slice(0, count)
    .map((entry) => entry.candidate);
}
