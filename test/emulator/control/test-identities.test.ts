/**
 * The `members` list of a seed or import file, checked before anything is written: every problem
 * named by its field and rule at once, a single one enough to refuse the list. bench.test.ts
 * proves what a checked list does to the emulator (and `sign-in-as`).
 */
import { describe, expect, it } from 'vitest';
import { checkTestMembers } from '../../../emulator/control/test-identities.js';
import { EmulatorError } from '../../../emulator/errors.js';

/** The violations a list is refused with, as `[field, rule]`, or `[]` when it passes. */
function violationsOf(members: unknown): [string, string][] {
  try {
    checkTestMembers(members);
    return [];
  } catch (error) {
    if (!(error instanceof EmulatorError)) throw error;
    expect(error.status).toBe(400);
    const { fieldViolations } = (
      error.body.details as { validationError: { fieldViolations: { field: string; violatedRule: string }[] } }
    ).validationError;
    return fieldViolations.map((violation) => [violation.field, violation.violatedRule]);
  }
}

describe('a members list', () => {
  it('passes with every field of a member, and returns it as given', () => {
    const members = [
      { id: 'm-1', email: 'one@example.test', password: 'pw', status: 'PENDING', verified: false, nickname: 'One' },
      { email: 'two@example.test', status: 'BLOCKED' },
      { email: 'three@example.test', status: 'APPROVED', verified: true },
    ];
    expect(checkTestMembers(members)).toBe(members);
    expect(checkTestMembers([])).toEqual([]);
  });

  it('is a list of objects', () => {
    expect(violationsOf({ email: 'one@example.test' })).toEqual([['members', 'VALIDATION']]);
    expect(violationsOf(['one@example.test', null])).toEqual([
      ['members.0', 'VALIDATION'],
      ['members.1', 'VALIDATION'],
    ]);
  });

  it('is refused for a single problem, each named by its field and rule', () => {
    const one = (member: Record<string, unknown>) => violationsOf([{ email: 'one@example.test', ...member }]);
    expect(one({ password: '' })).toEqual([['members.0.password', 'VALIDATION']]);
    expect(one({ password: 7 })).toEqual([['members.0.password', 'VALIDATION']]);
    expect(one({ status: 'SLEEPING' })).toEqual([['members.0.status', 'INVALID_ENUM_VALUE']]);
    expect(one({ verified: 'yes' })).toEqual([['members.0.verified', 'VALIDATION']]);
    expect(one({ nickname: 3 })).toEqual([['members.0.nickname', 'VALIDATION']]);
    expect(one({ id: 7 })).toEqual([['members.0.id', 'VALIDATION']]);
    expect(one({ id: ' ' })).toEqual([['members.0.id', 'VALIDATION']]);
    expect(one({ id: '..' })).toEqual([['members.0.id', 'VALIDATION']]);
    expect(one({ role: 'ADMIN' })).toEqual([['members.0.role', 'FIELD_NOT_ALLOWED']]);
    expect(violationsOf([{ email: 'not an email' }])).toEqual([['members.0.email', 'FORMAT']]);
    expect(violationsOf([{ email: 'a@b' }])).toEqual([['members.0.email', 'FORMAT']]);
    expect(violationsOf([{}])).toEqual([['members.0.email', 'FORMAT']]);
  });

  it('declares an email once, whatever its case and spaces', () => {
    expect(violationsOf([{ email: 'ada@example.test' }, { email: ' Ada@Example.TEST' }])).toEqual([
      ['members.1.email', 'DUPLICATE'],
    ]);
  });

  it('declares an id once; an id and an email never collide', () => {
    expect(
      violationsOf([
        { id: 'same', email: 'one@example.test' },
        { id: 'same', email: 'two@example.test' },
      ]),
    ).toEqual([['members.1.id', 'DUPLICATE']]);
    expect(
      checkTestMembers([
        { id: 'one@example.test', email: 'two@example.test' },
        { id: 'two@example.test', email: 'one@example.test' },
      ]),
    ).toHaveLength(2);
    // A member without an id takes none: another may be declared with the id 'undefined'.
    expect(
      checkTestMembers([{ email: 'one@example.test' }, { id: 'undefined', email: 'two@example.test' }]),
    ).toHaveLength(2);
  });

  it('says what is wrong with each field', () => {
    const descriptions = (members: unknown) => {
      try {
        checkTestMembers(members);
      } catch (error) {
        const { validationError } = (error as EmulatorError).body.details as {
          validationError: { fieldViolations: { field: string; description: string }[] };
        };
        return validationError.fieldViolations.map((violation) => `${violation.field}: ${violation.description}`);
      }
      return [];
    };
    expect(descriptions('x')).toEqual(['members: must be a list of members']);
    expect(
      descriptions([
        7,
        { id: 3, email: 'x', password: '', status: 'NO', verified: 1, nickname: 2, role: 'A' },
        { id: ' ', email: 'b@example.test' },
        { id: 'b', email: 'B@example.test' },
        { id: 'b', email: 'c@example.test' },
      ]),
    ).toEqual([
      'members.0: must be an object',
      'members.1.email: must be an email address',
      'members.1.id: must be an id: must be a string',
      'members.1.nickname: must be a string',
      'members.1.password: must be a non-empty string',
      'members.1.role: is not a field of a test member',
      'members.1.status: must be one of PENDING, APPROVED, BLOCKED',
      'members.1.verified: must be a boolean',
      'members.2.id: must be an id: must not be blank',
      'members.3.email: is declared twice',
      'members.4.id: is declared twice',
    ]);
  });

  it('names every problem of every member, sorted by field, at most 50', () => {
    const bad = Array.from({ length: 30 }, () => ({ email: 'x', status: 'NO' }));
    const violations = violationsOf(bad);
    expect(violations).toHaveLength(50);
    expect(violations.slice(0, 2)).toEqual([
      ['members.0.email', 'FORMAT'],
      ['members.0.status', 'INVALID_ENUM_VALUE'],
    ]);
  });
});
