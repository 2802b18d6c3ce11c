/** The collection roles in words. */
import { expect, it } from 'vitest';
import { permissionOperations, roleLabel, roles } from '../../../console/src/admin/permissions.js';

it('names each role, and a collection that says nothing is admin only (the platform default)', () => {
  expect(roles.map(({ role }) => roleLabel(role))).toEqual([
    'Anyone',
    'Site members',
    'The item’s author',
    'Admin only',
  ]);
  expect(roleLabel(undefined)).toBe('Admin only');
});

it('covers the four item operations', () => {
  expect(permissionOperations.map(({ key }) => key)).toEqual(['read', 'insert', 'update', 'remove']);
});
