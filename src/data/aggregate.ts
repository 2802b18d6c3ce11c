/** The aggregation builder (`items.aggregate(collectionId)`). */
import * as O from '../../generated/operations.js';
import type { Transport } from '../http/transport.js';
import { bad, combine, str, strs } from './filter.js';
import { D, pageOps, pages, type PageState } from './paging.js';
import { build } from './query.js';
import type { AggregateBuilder, AggregateRow } from './types.js';

interface AggregateState extends PageState {
  /** initialFilter (`c`) and finalFilter (`h`) conditions. */
  c: readonly unknown[];
  h: readonly unknown[];
  /** Grouping fields. */
  g?: string[];
  /** Operations. */
  o: readonly { resultFieldName: string }[];
}

/** An immutable aggregation over collection `id`. */
export const aggregate = (t: Transport, id: string): AggregateBuilder =>
  build<AggregateState>({ c: [], h: [], o: [], s: [], k: 0 }, (s, set) => {
    // Adds operation `how` (e.g. `{sum: {itemFieldName}}`) under a result field name not used yet.
    const op = (resultFieldName: string, how: object) =>
      s.o.some((o) => o.resultFieldName == resultFieldName) ? bad('resultFieldName', 'unique: ' + resultFieldName) : set({ o: [...s.o, { resultFieldName, ...how }] });
    const g = s.g ?? [];
    // Each row gets `_id` of its group, as the official result does.
    const row = (r: AggregateRow) => (g[0] && r._id === undefined ? { ...r, _id: g[1] ? Object.fromEntries(g.map((f) => [f, r[f]])) : r[g[0]] } : r);
    const b: any = {
      ...pageOps(s, set),
      filter: (f: unknown) => set({ c: [...s.c, f] }),
      having: (f: unknown) => set({ h: [...s.h, f] }),
      group: (...fields: unknown[]) => (s.g ? bad('group', 'called once') : set({ g: strs(fields) })),
      count: () => op('count', { itemCount: {} }),
      run: (options?: object) =>
        pages(
          t,
          O.aggregateDataItems,
          { [D]: id },
          { initialFilter: combine(s.c), aggregation: { groupingFields: g, operations: s.o }, finalFilter: combine(s.h), sort: s.s[0] && s.s },
          (r) => r.results?.map(row),
          s,
          options,
        ),
    };
    for (const name of ['sum', 'avg', 'min', 'max'])
      b[name] = (field: unknown, as?: unknown) =>
        op(as === undefined ? str(field) + name[0]!.toUpperCase() + name.slice(1) : str(as, 'resultFieldName'), { [name == 'avg' ? 'average' : name]: { itemFieldName: str(field) } });
    return b;
  });
