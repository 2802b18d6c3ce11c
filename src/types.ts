/** Public types shared by the generated models and the hand-written methods. */

/** Per-call options accepted by every SDK method. */
export interface CallOptions {
  /** Aborts the call (and its retries). */
  signal?: AbortSignal;
  /** Time limit for this call in milliseconds, retries included; overrides the client's. */
  timeoutMs?: number;
}

type RenamedKey<K> = K extends 'id'
  ? '_id'
  : K extends 'createdDate'
    ? '_createdDate'
    : K extends 'updatedDate'
      ? '_updatedDate'
      : K;

/** Public form of an entity: `id`, `createdDate`, `updatedDate` become `_id`, ... at every depth. */
export type Entity<T> = T extends
  | Date
  | string
  | number
  | boolean
  | bigint
  | symbol
  | null
  | undefined
  | ((...args: never[]) => unknown)
  ? T
  : T extends readonly (infer U)[]
    ? Entity<U>[]
    : { [K in keyof T as RenamedKey<K>]: Entity<T[K]> };

/** Public form of a data item: system fields plus the collection's own fields. */
export interface Item {
  _id?: string;
  _createdDate?: Date;
  _updatedDate?: Date;
  _owner?: string;
  [field: string]: unknown;
}
