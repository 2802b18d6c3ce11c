/** The aggregation builder (`items.aggregate(collectionId)`). */
import { operations as O } from '../../generated/operations.js';
import type { Transport } from '../http/transport.js';
import { bad, combine, str } from './filter.js';
import { D, pageOps, pages, type PageState } from './paging.js';
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
export function aggregate(t: Transport, id: string, s: AggregateState = { c: [], h: [], o: [], s: [], k: 0 }): AggregateBuilder {
  const set = (changes: Partial<AggregateState>) => aggregate(t, id, { ...s, ...changes });
  const op = (resultFieldName: string, wire?: string, field?: string) =>
    s.o.some((o) => o.resultFieldName == resultFieldName)
      ? bad(resultFieldName + ' is computed twice', 'resultFieldName')
      : set({ o: [...s.o, { resultFieldName, ...(wire ? { [wire]: { itemFieldName: field } } : { itemCount: {} }) }] });
  const g = s.g ?? [];
  // Each row gets `_id` of its group, as the official result does.
  const row = (r: AggregateRow) => (g[0] && r._id === undefined ? { ...r, _id: g[1] ? Object.fromEntries(g.map((f) => [f, r[f]])) : r[g[0]] } : r);
  const b: any = {
    ...pageOps(s, set),
    filter: (f: unknown) => set({ c: [...s.c, f] }),
    having: (f: unknown) => set({ h: [...s.h, f] }),
    group: (...fields: unknown[]) => (s.g ? bad('group() can only be called once', 'group') : set({ g: fields.map((f) => str(f)) })),
    count: () => op('count'),
    run: (options?: object) =>
      pages(
        t,
        O.aggregateDataItems,
        { [D]: id, initialFilter: combine(s.c, 1), aggregation: { groupingFields: g, operations: s.o }, finalFilter: combine(s.h, 1), sort: s.s[0] && s.s },
        { [D]: id },
        (r) => r.results?.map(row),
        s.l,
        s.k,
        options,
      ),
  };
  for (const name of ['sum', 'avg', 'min', 'max'])
    b[name] = (field: unknown, as?: unknown) =>
      op(as === undefined ? str(field) + name[0]!.toUpperCase() + name.slice(1) : str(as, 'resultFieldName'), name == 'avg' ? 'average' : name, str(field));
  return b;
}
