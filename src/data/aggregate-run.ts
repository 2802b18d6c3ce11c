/**
 * Running an aggregation (`Aggregate.run()`): its request and the official row shape. Loaded on
 * the first run, through ./aggregate.ts: most pages never aggregate.
 */
import * as operations from '../../generated/lazy-operations.js';
import type { AggregateState, AggregateTarget } from './aggregate.js';
import { conjunction, requestFilter } from './filter.js';
import { fetchPages } from './paging.js';
import type { AggregateOptions, AggregateRow, PagedResult } from './types.js';

/** One page of the aggregation's rows, each with `_id` of its group as the official result has. */
export function runAggregate(
  target: AggregateTarget,
  state: AggregateState,
  options?: AggregateOptions,
): Promise<PagedResult<AggregateRow>> {
  const { initialConditions, finalConditions, groupingFields = [], computations, sort } = state;
  const withGroupId = (row: AggregateRow): AggregateRow => {
    if (groupingFields.length === 0 || row._id !== undefined) return row;
    const groupId =
      groupingFields.length > 1
        ? Object.fromEntries(groupingFields.map((field) => [field, row[field]]))
        : row[groupingFields[0]!];
    return { ...row, _id: groupId };
  };
  return fetchPages<AggregateRow>(
    {
      transport: target.transport,
      operation: operations.aggregateDataItems,
      base: { dataCollectionId: target.collectionId },
      rest: {
        initialFilter: requestFilter(conjunction(initialConditions)),
        aggregation: { groupingFields, operations: computations },
        finalFilter: requestFilter(conjunction(finalConditions)),
        sort: sort.length > 0 ? sort : undefined,
      },
      entries: (response) => (response.results as AggregateRow[] | undefined)?.map(withGroupId),
      options,
    },
    state,
  );
}
