/** The `items` namespace: the methods generated from the schema. */
import { namespaceOperations, type ItemsOperations } from '../../generated/namespaces.js';
import { operations } from '../../generated/operations.js';
import type { Transport } from '../http/transport.js';
import { bindOperations } from '../invoke.js';

/** Every method of `client.items`. */
export type ItemsApi = ItemsOperations;

/** Creates `client.items` over a transport. */
export function itemsNamespace(transport: Transport): ItemsApi {
  return bindOperations<ItemsOperations>(transport, operations, namespaceOperations.items ?? []);
}
