/** The `members` namespace: the methods generated from the schema. */
import { namespaceOperations, type MembersOperations } from '../../generated/namespaces.js';
import { operations } from '../../generated/operations.js';
import type { Transport } from '../http/transport.js';
import { bindOperations } from '../invoke.js';

/** Every method of `client.members`. */
export type MembersApi = MembersOperations;

/** Creates `client.members` over a transport. */
export function membersNamespace(transport: Transport): MembersApi {
  return bindOperations<MembersOperations>(transport, operations, namespaceOperations.members ?? []);
}
