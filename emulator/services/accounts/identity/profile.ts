/** The `profile` of registration and sign-on (IdentityProfile) turned into a member's fields. */
import type { NewMember } from '../members/member-store.js';

type IdentityProfile = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value == 'string' && value ? value : undefined);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Member contact, profile and privacy from an identity profile (unknown parts are ignored). */
export function memberFieldsOf(
  profile: IdentityProfile | undefined,
): Pick<NewMember, 'contact' | 'profile' | 'privacyStatus'> {
  if (!profile || typeof profile != 'object') return {};
  const emails = [
    ...list(profile.emails),
    ...list(profile.secondaryEmails).map((entry) => (entry as { email?: unknown })?.email),
  ].filter((email): email is string => typeof email == 'string');
  const phones = [
    ...list(profile.phones),
    ...list(profile.phonesV2).map((entry) => (entry as { phone?: unknown })?.phone),
  ].filter((phone): phone is string => typeof phone == 'string');
  const addresses = list(profile.addresses)
    .map((entry) => (entry as { address?: unknown })?.address ?? entry)
    .filter((address) => address && typeof address == 'object');
  const customFields = Object.fromEntries(
    list(profile.customFields)
      .map((entry) => entry as { name?: unknown; value?: Record<string, unknown> })
      .filter((entry) => typeof entry?.name == 'string')
      .map((entry) => [
        entry.name as string,
        { name: entry.name, value: entry.value ? Object.values(entry.value)[0] : undefined },
      ]),
  );
  const contact: Record<string, unknown> = {
    ...(text(profile.firstName) ? { firstName: profile.firstName } : {}),
    ...(text(profile.lastName) ? { lastName: profile.lastName } : {}),
    ...(text(profile.birthdate) ? { birthdate: profile.birthdate } : {}),
    ...(text(profile.company) ? { company: profile.company } : {}),
    ...(text(profile.position) ? { jobTitle: profile.position } : {}),
    ...(emails.length ? { emails } : {}),
    ...(phones.length ? { phones } : {}),
    ...(addresses.length ? { addresses } : {}),
    ...(Object.keys(customFields).length ? { customFields } : {}),
  };
  const nickname = text(profile.nickname);
  const picture = text(profile.picture);
  return {
    contact,
    profile: { ...(nickname ? { nickname } : {}), ...(picture ? { photo: { url: picture } } : {}) },
    ...(profile.privacyStatus == 'PRIVATE' || profile.privacyStatus == 'PUBLIC'
      ? { privacyStatus: profile.privacyStatus as 'PRIVATE' | 'PUBLIC' }
      : {}),
  };
}
