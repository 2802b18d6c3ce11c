/**
 * The request type of one operation of the generated route table, as its handler receives it
 * (`ServiceCall.input`): derived from the openapi-typescript `operations` of `generated/wire.ts`.
 */
import type { operations } from '../../generated/wire.js';
import type { ServiceCall } from '../service.js';

/** `{}` in place of `never` or `undefined`, so an absent part adds nothing to an intersection. */
type Part<Value> = [Exclude<Value, undefined>] extends [never] ? {} : Exclude<Value, undefined>;

/** The JSON body of an operation that has one. */
type JsonBody<Operation> = Operation extends { requestBody: { content: { 'application/json': infer Body } } }
  ? Body
  : never;

/** The query parameters merged with the path parameters: what a body-less route's handler receives. */
type QueryAndPath<Operation> = Operation extends { parameters: { query?: infer Query; path?: infer Path } }
  ? Part<Query> & Part<Path>
  : {};

/**
 * The validated input of operation `Id`: its JSON body (which carries the path parameters as
 * fields), or for a route without a body its query with the path parameters merged in.
 */
export type OperationInput<Id extends keyof operations> = [JsonBody<operations[Id]>] extends [never]
  ? QueryAndPath<operations[Id]>
  : JsonBody<operations[Id]>;

/** One call of operation `Id`, typed with its request. */
export type OperationCall<Id extends keyof operations> = ServiceCall<OperationInput<Id>>;
