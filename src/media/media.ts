/** The `media` namespace: the methods generated from the schema. */
import { namespaceOperations, type MediaOperations } from '../../generated/namespaces.js';
import { operations } from '../../generated/operations.js';
import type { Transport } from '../http/transport.js';
import { bindOperations } from '../invoke.js';

/** Every method of `client.media`. */
export type MediaApi = MediaOperations;

/** Creates `client.media` over a transport. */
export function mediaNamespace(transport: Transport): MediaApi {
  return bindOperations<MediaOperations>(transport, operations, namespaceOperations.media ?? []);
}
