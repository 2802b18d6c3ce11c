/** The collection roles in words, shared by the collection list and the permission editor. */
import type { DataCollectionPermissions, DataCollectionRole } from 'sitekit-sdk';

/** Roles from the most open to the most closed, with what each means. */
export const roles: { role: DataCollectionRole; label: string }[] = [
  { role: 'ANYONE', label: 'Anyone' },
  { role: 'SITE_MEMBER', label: 'Site members' },
  { role: 'SITE_MEMBER_AUTHOR', label: 'The item’s author' },
  { role: 'ADMIN', label: 'Admin only' },
];

/** The four item operations a collection's permissions cover. */
export const permissionOperations: { key: keyof DataCollectionPermissions; label: string }[] = [
  { key: 'read', label: 'Read' },
  { key: 'insert', label: 'Insert' },
  { key: 'update', label: 'Update' },
  { key: 'remove', label: 'Remove' },
];

/** A role's label ('Admin only' when the collection does not say). */
export function roleLabel(role: DataCollectionRole | undefined): string {
  return roles.find((candidate) => candidate.role === role)?.label ?? 'Admin only';
}
