/**
 * The outbox: the emulator never sends email. Every message a service would send (verification
 * codes, recovery and activation links) is a row here, written in the same transaction as the
 * change that causes it, and read back with `GET /_emulator/outbox` by tests and people.
 */
import { randomUUID } from 'node:crypto';
import { controlRoute } from '../control/register.js';
import type { EmulatorContext, ServiceModule } from '../service.js';
import type { Store } from '../store/store.js';

/** What kind of message an email is. */
export type EmailKind = 'verification-code' | 'password-recovery' | 'account-activation';

/** One email as a service hands it to the outbox. */
export interface OutgoingEmail {
  to: string;
  subject: string;
  /** The whole text, as a person would read it. */
  text: string;
  kind: EmailKind;
  /** The code the email carries (verification), shown apart so it is easy to copy. */
  code?: string;
  /** The link the email carries (recovery, activation). */
  link?: string;
}

/** One email as `GET /_emulator/outbox` shows it. */
export interface OutboxEmail extends OutgoingEmail {
  id: string;
  /** ISO time it was "sent". */
  createdAt: string;
}

interface EmailRow {
  id: string;
  to_address: string;
  subject: string;
  text: string;
  kind: EmailKind;
  code: string | null;
  link: string | null;
  created_at: string;
}

/** Puts an email in the outbox, sent now on the emulator's clock; call it inside the transaction of the change that sends it. */
export function sendEmail(
  { store, clock }: Pick<EmulatorContext, 'store' | 'clock'>,
  email: OutgoingEmail,
): OutboxEmail {
  const stored: OutboxEmail = { id: randomUUID(), createdAt: clock.iso(), ...email };
  store.run(
    'INSERT INTO outbox (id, to_address, subject, text, kind, code, link, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [
      stored.id,
      email.to.toLowerCase(),
      email.subject,
      email.text,
      email.kind,
      email.code ?? null,
      email.link ?? null,
      stored.createdAt,
    ],
  );
  return stored;
}

const fromRow = (row: EmailRow): OutboxEmail => ({
  id: row.id,
  to: row.to_address,
  subject: row.subject,
  text: row.text,
  kind: row.kind,
  ...(row.code ? { code: row.code } : {}),
  ...(row.link ? { link: row.link } : {}),
  createdAt: row.created_at,
});

/** The emails, newest first; `to` keeps those sent to one address (case-insensitive). */
export function listEmails(store: Store, to?: string): OutboxEmail[] {
  const rows = to
    ? store.all<EmailRow>('SELECT * FROM outbox WHERE to_address = ? ORDER BY sequence DESC', [to.trim().toLowerCase()])
    : store.all<EmailRow>('SELECT * FROM outbox ORDER BY sequence DESC');
  return rows.map(fromRow);
}

/** The outbox module: its table and `GET /_emulator/outbox`. */
export const outboxService: ServiceModule = {
  name: 'outbox',
  migrations: [
    {
      id: 'outbox-001-emails',
      sql: `CREATE TABLE outbox (
        sequence INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        to_address TEXT NOT NULL,
        subject TEXT NOT NULL,
        text TEXT NOT NULL,
        kind TEXT NOT NULL,
        code TEXT,
        link TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX outbox_by_address ON outbox (to_address, sequence)`,
    },
  ],
  routes(app, sites) {
    controlRoute(app, 'listOutbox', ({ query: { to }, request }) => ({
      emails: listEmails(sites.of(request).store, to?.trim() ? to : undefined),
    }));
  },
};
