/**
 * The names a fault rule may address (generated/control/fault-operations.ts) are true: every
 * `namespace.method` is a method of a real client, and every name means operations of the route table.
 */
import { describe, expect, it } from 'vitest';
import { faultOperations } from '../../../generated/control/fault-operations.js';
import { routes } from '../../../generated/routes.js';
import { createClient, OAuthStrategy } from '../../../src/index.js';

describe('fault operation names', () => {
  const client = createClient({ baseUrl: 'http://127.0.0.1:1', auth: OAuthStrategy({ clientId: 'client' }) });
  const operationIds = new Set(routes.map((route) => route.operationId));

  it.each(Object.keys(faultOperations).filter((name) => name.includes('.')))('%s is a method of the SDK', (name) => {
    const [namespace, method] = name.split('.') as [string, string];
    const target = (client as unknown as Record<string, Record<string, unknown>>)[namespace];
    expect(typeof target?.[method]).toBe('function');
  });

  it('every name means operations of the route table, and every operation is addressable by its id', () => {
    for (const ids of Object.values(faultOperations)) for (const id of ids) expect(operationIds.has(id)).toBe(true);
    for (const id of operationIds) expect(faultOperations[id]).toContain(id);
  });

  it("the official SDK's names are there: getDataItem means the item read", () => {
    expect(faultOperations.getDataItem).toEqual(['get']);
    expect(faultOperations['items.query']).toEqual(['queryDataItems']);
  });
});
