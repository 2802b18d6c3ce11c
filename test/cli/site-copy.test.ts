/**
 * The anonymization of members by `sitekit-sdk pull`: no personal data of the site's member may
 * reach the copy, wherever it sits (the fields our model names, and fields a site adds that it does
 * not, at the top, in the contact or in the profile); IDs, statuses and dates are kept.
 */
import { describe, expect, it } from 'vitest';
import { anonymizeMember, wireMember } from '../../cli/site-copy.js';
import type { Member } from '../../src/index.js';

const PERSONAL = ['Jane', 'Doe', 'jane@real.example', 'jane.work@real.example', '+33 6 12 34 56 78', 'Paris', 'ACME'];

/** A member of a live site with personal data everywhere, including fields the SDK's model does not name. */
const janeDoe = {
  _id: 'm-1',
  loginEmail: 'jane@real.example',
  loginEmailVerified: true,
  status: 'APPROVED',
  contactId: 'c-1',
  privacyStatus: 'PUBLIC',
  activityStatus: 'ACTIVE',
  _createdDate: new Date('2024-01-02T03:04:05.000Z'),
  _updatedDate: new Date('2024-02-02T03:04:05.000Z'),
  lastLoginDate: new Date('2024-03-02T03:04:05.000Z'),
  signature: 'Jane Doe, Paris',
  contact: {
    contactId: 'c-1',
    firstName: 'Jane',
    lastName: 'Doe',
    phones: ['+33 6 12 34 56 78'],
    emails: ['jane@real.example', 'jane.work@real.example'],
    addresses: [{ city: 'Paris', addressLine: '1 rue de Jane' }],
    birthdate: '1990-01-01',
    company: 'ACME',
    jobTitle: 'Jane of all trades',
    customFields: { hobby: { name: 'hobby', value: { text: 'Jane likes Paris' } } },
    phonesV2: [{ phone: '+33 6 12 34 56 78' }],
  },
  profile: {
    nickname: 'Jane Doe',
    slug: 'jane-doe',
    title: 'Dr Jane',
    photo: { url: 'https://real.example/jane.png' },
    cover: { url: 'https://real.example/paris.png' },
    bio: 'Jane Doe from Paris, works at ACME',
  },
} as unknown as Member;

describe('anonymizeMember', () => {
  it('leaves no personal data anywhere in the member or its wire form, known field or not', () => {
    const anonymous = anonymizeMember(janeDoe, 7);
    const written = JSON.stringify(wireMember(anonymous));
    for (const personal of PERSONAL) expect(written).not.toContain(personal);
    expect(written).not.toContain('real.example');
    expect(anonymous).toEqual({
      _id: 'm-1',
      loginEmail: 'member-7@example.test',
      loginEmailVerified: true,
      status: 'APPROVED',
      contactId: 'c-1',
      privacyStatus: 'PUBLIC',
      activityStatus: 'ACTIVE',
      _createdDate: new Date('2024-01-02T03:04:05.000Z'),
      _updatedDate: new Date('2024-02-02T03:04:05.000Z'),
      lastLoginDate: new Date('2024-03-02T03:04:05.000Z'),
      contact: {
        contactId: 'c-1',
        firstName: 'Member',
        lastName: '7',
        phones: ['+1 555 0070'],
        emails: ['member-7@example.test', 'member-7-1@example.test'],
      },
      profile: { nickname: 'Member 7', slug: 'member-7' },
    });
  });

  it("numbers a member's phones from its number, in four digits, members past the 99th included", () => {
    const withPhones = (index: number) =>
      anonymizeMember({ _id: 'm-3', contact: { phones: ['+33 6 12 34 56 78', '+33 1 23 45 67 89'] } } as Member, index)
        .contact?.phones;
    expect(withPhones(3)).toEqual(['+1 555 0030', '+1 555 0031']);
    expect(withPhones(123)).toEqual(['+1 555 1230', '+1 555 1231']);
    expect(withPhones(1234)).toEqual(['+1 555 2340', '+1 555 2341']);
  });

  it('keeps a member without contact or login email without inventing them', () => {
    const anonymous = anonymizeMember({ _id: 'm-2', profile: { nickname: 'Jane' } } as Member, 2);
    expect(anonymous).toEqual({ _id: 'm-2', profile: { nickname: 'Member 2', slug: 'member-2' } });
  });
});
