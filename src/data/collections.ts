/** The `collections` namespace: the methods generated from the schema. */
import { namespaceOperations, type CollectionsOperations } from '../../generated/namespaces.js';
import type { Transport } from '../http/transport.js';
import { bindOperations } from '../invoke.js';

/** Every method of `client.collections`. */
export type CollectionsApi = CollectionsOperations;

/** Creates `client.collections` over a transport. */
export function collectionsNamespace(transport: Transport): CollectionsApi {
  return bindOperations<CollectionsOperations>(transport, namespaceOperations.collections);
}
