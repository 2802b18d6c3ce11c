/**
 * Members as stored: the wire form of each member as JSON (so member queries reuse the filter
 * language's SQL translation), with the login email and the slug as unique columns.
 */
import { randomUUID } from 'node:crypto';
import { applicationError, invalidField } from '../../../errors.js';
import type { Caller, EmulatorContext } from '../../../service.js';
import type { Migration, Store } from '../../../store/store.js';
import { checkStoredValue } from '../../../untrusted-json.js';

/** Site access status of a member. */
export type MemberStatus = 'PENDING' | 'APPROVED' | 'BLOCKED' | 'OFFLINE';

/** A member in wire form (what the API answers with the FULL field set). */
export interface Member {
  id: string;
  loginEmail?: string;
  loginEmailVerified: boolean;
  status: MemberStatus;
  contactId: string;
  contact: Record<string, unknown>;
  profile: {
    nickname?: string;
    slug: string;
    photo?: Record<string, unknown>;
    cover?: Record<string, unknown>;
    title?: string;
  };
  privacyStatus: 'PRIVATE' | 'PUBLIC';
  activityStatus: 'ACTIVE' | 'MUTED';
  createdDate: string;
  updatedDate: string;
  lastLoginDate?: string;
}

/** What a new member is made of. */
export interface NewMember {
  /** A fixed id (test identities of a seed file); default a fresh one. */
  id?: string;
  loginEmail?: string;
  status: MemberStatus;
  loginEmailVerified?: boolean;
  contact?: Record<string, unknown>;
  profile?: { nickname?: string; photo?: Record<string, unknown>; cover?: Record<string, unknown>; title?: string };
  privacyStatus?: 'PRIVATE' | 'PUBLIC';
}

export const memberMigrations: Migration[] = [
  {
    id: 'members-001-members',
    sql: `CREATE TABLE members (
      id TEXT PRIMARY KEY,
      login_email TEXT UNIQUE COLLATE NOCASE,
      slug TEXT NOT NULL UNIQUE,
      created_at TEXT NOT NULL,
      data TEXT NOT NULL
    )`,
  },
];

/** The member's row column holding its JSON, for the filter translator. */
export const MEMBER_JSON = 'members.data';

/** 404 for a member that does not exist (or that the caller may not see). */
export const memberNotFound = (memberId: string) =>
  applicationError(404, 'MEMBER_NOT_FOUND', `Member ${memberId} not found`, { memberId });

/** Emails as the platform compares them. */
export const normalEmail = (email: string) => email.trim().toLowerCase();

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Whether `email` looks like an email address. */
export const isEmail = (email: unknown): email is string =>
  typeof email == 'string' && email.length <= 254 && EMAIL_PATTERN.test(email.trim());

const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Checks a slug a caller asked for. */
export function requireSlug(slug: unknown, field = 'slug'): string {
  if (typeof slug != 'string' || !slug) throw invalidField(field, 'must not be empty', 'REQUIRED_FIELD');
  if (slug.length > 100 || !SLUG_PATTERN.test(slug))
    throw invalidField(
      field,
      'must be lowercase letters and digits separated by single dashes, at most 100 characters',
      'FORMAT',
    );
  return slug;
}

/** A free slug made from a name: `Ada Lovelace` → `ada-lovelace`, then `ada-lovelace-1`... */
function freeSlug(store: Store, name: string): string {
  const base =
    name
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'member';
  for (let suffix = 0; ; suffix++) {
    const slug = suffix ? `${base}-${suffix}` : base;
    if (!store.get('SELECT 1 FROM members WHERE slug = ?', [slug])) return slug;
  }
}

/** The member with this id, or undefined. */
export function findMember(store: Store, memberId: string): Member | undefined {
  const row = store.get<{ data: string }>('SELECT data FROM members WHERE id = ?', [memberId]);
  return row ? (JSON.parse(row.data) as Member) : undefined;
}

/** The member with this login email, or undefined. */
export function findMemberByEmail(store: Store, email: string): Member | undefined {
  const row = store.get<{ data: string }>('SELECT data FROM members WHERE login_email = ?', [normalEmail(email)]);
  return row ? (JSON.parse(row.data) as Member) : undefined;
}

/** The member with this slug, or undefined. */
export function findMemberBySlug(store: Store, slug: string): Member | undefined {
  const row = store.get<{ data: string }>('SELECT data FROM members WHERE slug = ?', [slug]);
  return row ? (JSON.parse(row.data) as Member) : undefined;
}

/** The member, or a 404. */
export function requireMember(store: Store, memberId: string): Member {
  const member = findMember(store, memberId);
  if (!member) throw memberNotFound(memberId);
  return member;
}

/**
 * Writes a member (insert or replace), keeping its columns in step with its JSON. Every write
 * passes here, so no stored member nests deeper than member queries can read, whichever route
 * (create, update, registration) brought its contact and profile.
 */
export function saveMember(store: Store, member: Member): Member {
  checkStoredValue(member, 'member');
  store.run(
    `INSERT INTO members (id, login_email, slug, created_at, data) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET login_email = excluded.login_email, slug = excluded.slug, data = excluded.data`,
    [
      member.id,
      member.loginEmail ? normalEmail(member.loginEmail) : null,
      member.profile.slug,
      member.createdDate,
      JSON.stringify(member),
    ],
  );
  return member;
}

/** What the member writes read: the store, and the clock their dates follow. */
export type MemberScope = Pick<EmulatorContext, 'store' | 'clock'>;

/** Creates a member with a fresh id, contact id and slug. The caller checked the email is free. */
export function insertMember({ store, clock }: MemberScope, fields: NewMember): Member {
  const now = clock.iso();
  const nickname = fields.profile?.nickname ?? fields.loginEmail?.split('@')[0];
  const member: Member = {
    id: fields.id ?? randomUUID(),
    ...(fields.loginEmail ? { loginEmail: normalEmail(fields.loginEmail) } : {}),
    loginEmailVerified: fields.loginEmailVerified ?? false,
    status: fields.status,
    contactId: randomUUID(),
    contact: fields.contact ?? {},
    profile: { ...fields.profile, ...(nickname ? { nickname } : {}), slug: freeSlug(store, nickname ?? 'member') },
    privacyStatus: fields.privacyStatus ?? 'PUBLIC',
    activityStatus: 'ACTIVE',
    createdDate: now,
    updatedDate: now,
  };
  return saveMember(store, member);
}

/** Applies `change` to a stored member and saves it with a new `updatedDate`. */
export function changeMember(
  { store, clock }: MemberScope,
  memberId: string,
  change: (member: Member) => void,
): Member {
  const member = requireMember(store, memberId);
  change(member);
  member.updatedDate = clock.iso();
  return saveMember(store, member);
}

/** Sets a member's slug; a slug another member has is a 409. */
export function setSlug(scope: MemberScope, memberId: string, slug: string): Member {
  const holder = scope.store.get<{ id: string }>('SELECT id FROM members WHERE slug = ?', [slug]);
  if (holder && holder.id != memberId)
    throw applicationError(409, 'SLUG_ALREADY_EXISTS', `The slug ${slug} belongs to another member`, { slug });
  return changeMember(scope, memberId, (member) => void (member.profile.slug = slug));
}

/** A member's field sets (spec: PUBLIC, EXTENDED, FULL). */
export type Fieldset = 'PUBLIC' | 'EXTENDED' | 'FULL';

/** The top-level fields of the PUBLIC field set: what anyone may read of a member it may see (see {@link shapeMember}). */
const PUBLIC_MEMBER_FIELDS = new Set(['id', 'contactId', 'profile']);

/** Whether a dotted member field (`profile.nickname`) belongs to the PUBLIC field set. */
export const isPublicMemberField = (fieldName: string): boolean => PUBLIC_MEMBER_FIELDS.has(fieldName.split('.')[0]!);

/** Whether the caller may see everything of `memberId`: the member itself, or an elevated caller. */
export const actsOn = (caller: Caller, memberId: string): boolean =>
  caller.kind == 'elevated' || (caller.kind == 'member' && caller.memberId == memberId);

/**
 * Whether a caller who is neither the member nor elevated may see the member at all: public,
 * approved members only (private members are hidden from visitors and other members).
 */
export const isVisibleToOthers = (member: Member): boolean =>
  member.privacyStatus == 'PUBLIC' && member.status == 'APPROVED';

/** The widest field set among those asked for (default PUBLIC). */
export function widestFieldset(fieldsets: unknown): Fieldset {
  const asked = Array.isArray(fieldsets) ? fieldsets : typeof fieldsets == 'string' ? [fieldsets] : [];
  if (asked.includes('FULL')) return 'FULL';
  if (asked.includes('EXTENDED')) return 'EXTENDED';
  return 'PUBLIC';
}

/**
 * The member as the caller may see it with the field set asked for: others than the member and
 * elevated callers get the PUBLIC set whatever they ask.
 */
export function shapeMember(member: Member, fieldset: Fieldset, caller: Caller): Record<string, unknown> {
  const allowed: Fieldset = actsOn(caller, member.id) ? fieldset : 'PUBLIC';
  const publicPart = { id: member.id, contactId: member.contactId, profile: member.profile };
  if (allowed == 'PUBLIC') return publicPart;
  const extended = {
    ...publicPart,
    ...(member.loginEmail ? { loginEmail: member.loginEmail } : {}),
    loginEmailVerified: member.loginEmailVerified,
    status: member.status,
    privacyStatus: member.privacyStatus,
    activityStatus: member.activityStatus,
  };
  if (allowed == 'EXTENDED') return extended;
  return { ...member };
}
