/** The aggregation builder (`items.aggregate(collectionId)`), its request and the official row shape. */
import { aggregateDataItems } from '../../generated/operations/aggregateDataItems.js';
import type { Transport } from '../http/transport.js';
import { invalid, isRecord, requireString } from '../input.js';
import { conjunction, filterOf, requestFilter } from './filter.js';
import { FIRST_PAGE, fetchPages, limitOf, skipOf, sortedBy, type PageState } from './paging.js';
import type { AggregateOptions, AggregateRow, FilterLike, FilterObject, PagedResult } from './types.js';

/** One aggregation operation on the wire: the result field and how it is computed, e.g. `{sum: {itemFieldName}}`. */
type AggregateOperation = { resultFieldName: string } & Record<string, unknown>;

/** What an aggregation keeps: filters before and after grouping, grouping fields, the computed result fields, and paging. */
export interface AggregateState extends PageState {
  readonly initialConditions: readonly FilterObject[];
  readonly finalConditions: readonly FilterObject[];
  readonly groupingFields?: readonly string[];
  readonly computations: readonly AggregateOperation[];
}

/** The per-field aggregation methods: the wire operation of each and the suffix of its default result field. */
const FIELD_AGGREGATIONS = {
  sum: { operation: 'sum', suffix: 'Sum' },
  avg: { operation: 'average', suffix: 'Avg' },
  min: { operation: 'min', suffix: 'Min' },
  max: { operation: 'max', suffix: 'Max' },
} as const;

/** Where an aggregation runs. */
export interface AggregateTarget {
  readonly transport: Transport;
  readonly collectionId: string;
}

/**
 * An immutable aggregation over one collection: every method returns a new builder. Written for
 * untyped rows; `items.aggregate` gives it the `AggregateBuilder` type, whose row type follows the
 * builder's calls (a type-level record only: the rows are what the server sends).
 */
export class Aggregate {
  constructor(
    private readonly target: AggregateTarget,
    private readonly state: AggregateState = {
      ...FIRST_PAGE,
      initialConditions: [],
      finalConditions: [],
      computations: [],
    },
  ) {}

  private withState(changes: Partial<AggregateState>): Aggregate {
    return new Aggregate(this.target, { ...this.state, ...changes });
  }

  /** Adds an operation under a result field name not used yet. */
  private withOperation(resultFieldName: string, computation: Record<string, unknown>): Aggregate {
    if (this.state.computations.some((computation) => computation.resultFieldName === resultFieldName))
      invalid('resultFieldName', `unique: ${resultFieldName}`);
    return this.withState({ computations: [...this.state.computations, { resultFieldName, ...computation }] });
  }

  private aggregateField(
    method: keyof typeof FIELD_AGGREGATIONS,
    field: unknown,
    resultFieldName?: unknown,
  ): Aggregate {
    const { operation, suffix } = FIELD_AGGREGATIONS[method];
    const itemFieldName = requireString(field, 'field');
    const name =
      resultFieldName === undefined ? itemFieldName + suffix : requireString(resultFieldName, 'resultFieldName');
    return this.withOperation(name, { [operation]: { itemFieldName } });
  }

  /** Filters the items before grouping (`initialFilter`); repeated calls are combined with AND. */
  filter(filter: FilterLike): Aggregate {
    return this.withState({ initialConditions: [...this.state.initialConditions, filterOf(filter)] });
  }
  /** Filters the groups (`finalFilter`); repeated calls are combined with AND. */
  having(filter: FilterLike): Aggregate {
    return this.withState({ finalConditions: [...this.state.finalConditions, filterOf(filter)] });
  }
  /** Groups by these fields; call it once. */
  group(...fields: string[]): Aggregate {
    if (this.state.groupingFields) invalid('group', 'called once');
    return this.withState({ groupingFields: fields.map((field) => requireString(field, 'field')) });
  }
  /** Sum of a field per group (result field `<field>Sum` by default). */
  sum(field: string, resultFieldName?: string): Aggregate {
    return this.aggregateField('sum', field, resultFieldName);
  }
  /** Average of a field per group (result field `<field>Avg` by default). */
  avg(field: string, resultFieldName?: string): Aggregate {
    return this.aggregateField('avg', field, resultFieldName);
  }
  /** Smallest value of a field per group (result field `<field>Min` by default). */
  min(field: string, resultFieldName?: string): Aggregate {
    return this.aggregateField('min', field, resultFieldName);
  }
  /** Largest value of a field per group (result field `<field>Max` by default). */
  max(field: string, resultFieldName?: string): Aggregate {
    return this.aggregateField('max', field, resultFieldName);
  }
  /** Number of items per group, in the result field `count`. */
  count(): Aggregate {
    return this.withOperation('count', { itemCount: {} });
  }
  /** Sorts the rows by the fields, ascending, after any earlier sort. */
  ascending(...fields: string[]): Aggregate {
    return this.withState({ sort: sortedBy(this.state.sort, fields, 'ASC') });
  }
  /** Sorts the rows by the fields, descending, after any earlier sort. */
  descending(...fields: string[]): Aggregate {
    return this.withState({ sort: sortedBy(this.state.sort, fields, 'DESC') });
  }
  /** Page size: a positive integer (default 50). */
  limit(limit: number): Aggregate {
    return this.withState({ limit: limitOf(limit) });
  }
  /** Number of rows to skip: a non-negative integer (default 0). */
  skip(skip: number): Aggregate {
    return this.withState({ skip: skipOf(skip) });
  }

  /** Runs the aggregation: one page of rows, each with `_id` of its group as the official result has. */
  async run(options?: AggregateOptions): Promise<PagedResult<AggregateRow>> {
    const { initialConditions, finalConditions, groupingFields = [], computations, sort } = this.state;
    return fetchPages<AggregateRow>(
      {
        transport: this.target.transport,
        operation: aggregateDataItems,
        base: { dataCollectionId: this.target.collectionId },
        rest: {
          initialFilter: requestFilter(conjunction(initialConditions)),
          aggregation: { groupingFields, operations: computations },
          finalFilter: requestFilter(conjunction(finalConditions)),
          sort: sort.length > 0 ? sort : undefined,
        },
        entries: (response) =>
          (response.results as AggregateRow[] | undefined)?.map((row) => withGroupId(row, groupingFields)),
        options,
      },
      this.state,
    );
  }
}

/**
 * `row` in its public shape: each grouping field at the top level, and `_id`, the group. The
 * service sends the group wrapped, `{_id: {year: 1975}, count: 3}`; like the official client
 * (`unwrapAggregationId`, @wix/wix-data-items-common), `_id` is unwrapped to the value when it
 * holds one field and stays the object of the values when it holds several.
 */
function withGroupId(row: AggregateRow, groupingFields: readonly string[]): AggregateRow {
  if (groupingFields.length === 0) return row;
  const wrapped = row._id;
  if (!isRecord(wrapped)) return row;
  const keys = Object.keys(wrapped);
  return { ...wrapped, ...row, _id: keys.length === 1 ? wrapped[keys[0]!] : wrapped };
}
