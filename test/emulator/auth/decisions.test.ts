import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { recordDecision, type CollectionDecision, type Decision } from '../../../emulator/auth/decisions.js';

const allowedRead = (): CollectionDecision => ({
  kind: 'collection',
  allowed: true,
  enforced: true,
  collectionId: 'Movies',
  action: 'read',
  requiredRole: 'ANYONE',
  callerKind: 'visitor',
});
const request = () => ({}) as FastifyRequest;

describe('recordDecision', () => {
  it("keeps each request's decisions in order, whatever other requests record", () => {
    const first = request();
    const second = request();
    recordDecision(first, allowedRead());
    recordDecision(second, allowedRead());
    const refusal: Decision = {
      kind: 'refusal',
      allowed: false,
      status: 429,
      code: 'TOO_MANY_REQUESTS',
      description: 'Rate limit exceeded',
      callerKind: 'visitor',
    };
    recordDecision(first, refusal);
    expect(first.decisions).toEqual([allowedRead(), refusal]);
    expect(second.decisions).toEqual([allowedRead()]);
    const third = request();
    recordDecision(third, allowedRead());
    expect(third.decisions).toEqual([allowedRead()]);
  });

  it('tells apart decisions that differ in any fact', () => {
    const variants: Decision[] = [
      allowedRead(),
      { ...allowedRead(), allowed: false },
      { ...allowedRead(), enforced: false },
      { ...allowedRead(), collectionId: 'Books' },
      { ...allowedRead(), action: 'update' },
      { ...allowedRead(), requiredRole: 'SITE_MEMBER' },
      { ...allowedRead(), callerKind: 'member' },
      { ...allowedRead(), ownItemsOnly: true },
    ];
    for (const decision of variants) {
      const one = request();
      recordDecision(one, decision);
      expect(one.decisions).toEqual([decision]);
    }
  });

  it('tells apart refusals that differ in any fact', () => {
    const refusal: Decision = {
      kind: 'refusal',
      allowed: false,
      status: 403,
      code: 'PERMISSION_DENIED',
      description: 'Elevated only',
      callerKind: 'visitor',
    };
    const variants: Decision[] = [
      refusal,
      { ...refusal, status: 401 },
      { ...refusal, code: 'UNAUTHENTICATED' },
      { ...refusal, description: 'Other words' },
      { ...refusal, callerKind: 'member' },
    ];
    for (const decision of variants) {
      const one = request();
      recordDecision(one, decision);
      expect(one.decisions).toEqual([decision]);
    }
  });
});
