/**
 * Demo members, written on first start and by `POST /_emulator/reset`: a few public members,
 * a private one and one waiting for approval. Ada can sign in with {@link DEMO_PASSWORD}.
 */
import { DEMO_ASSETS } from '../../../../generated/emulator-demo.js';
import { DEMO_PASSWORD } from '../../../demo-assets.js';
import type { EmulatorContext } from '../../../service.js';
import { saveIdentity } from '../identity/identity-store.js';
import { insertMember, type NewMember } from './member-store.js';

/** The email of the demo member who can sign in. */
export const DEMO_EMAIL = 'ada@example.com';
export { DEMO_PASSWORD };

const DEMO_MEMBERS: (NewMember & { password?: string })[] = [
  {
    loginEmail: DEMO_EMAIL,
    loginEmailVerified: true,
    status: 'APPROVED',
    profile: { nickname: 'Ada Lovelace', title: 'Analyst' },
    contact: { firstName: 'Ada', lastName: 'Lovelace' },
    password: DEMO_PASSWORD,
  },
  {
    loginEmail: 'grace@example.com',
    loginEmailVerified: true,
    status: 'APPROVED',
    profile: { nickname: 'Grace Hopper', title: 'Rear Admiral' },
    contact: { firstName: 'Grace', lastName: 'Hopper' },
  },
  {
    loginEmail: 'alan@example.com',
    loginEmailVerified: true,
    status: 'APPROVED',
    privacyStatus: 'PRIVATE',
    profile: { nickname: 'Alan Turing' },
    contact: { firstName: 'Alan', lastName: 'Turing' },
  },
  { loginEmail: 'pending@example.com', status: 'PENDING', profile: { nickname: 'Pending Person' } },
];

/** The stored hash of a demo password, made at build (`emulator/demo-assets.ts`). */
function demoPasswordHash(password: string): string {
  const hash = DEMO_ASSETS.passwordHashes[password];
  if (hash === undefined)
    throw new Error('generated/emulator-demo.ts has no hash of a demo password: run npm run codegen');
  return hash;
}

/** Writes the demo members (inside the seeding transaction). */
export function seedMembers(context: EmulatorContext): void {
  for (const { password, ...fields } of DEMO_MEMBERS) {
    const member = insertMember(context, fields);
    saveIdentity(context.store, {
      memberId: member.id,
      passwordHash: password ? demoPasswordHash(password) : null,
      resetRequired: false,
      connections: [],
      revision: 1,
    });
  }
}
