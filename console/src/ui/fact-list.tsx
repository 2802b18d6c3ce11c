/** A record's facts as a list of names and values (a logged request's, a webhook delivery's). */
import { Fragment } from 'react';

/** Props of {@link FactList}. */
export interface FactListProps {
  /** Name and value pairs, in the order shown. */
  facts: readonly (readonly [string, string])[];
}

/** `<dl class="facts">`: the names in a column, the values beside them in monospace. */
export function FactList({ facts }: FactListProps) {
  return (
    <dl className="facts">
      {facts.map(([name, value]) => (
        <Fragment key={name}>
          <dt>{name}</dt>
          <dd className="mono">{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}
