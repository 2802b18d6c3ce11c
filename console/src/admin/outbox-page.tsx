/** Admin: every email the emulator would have sent (verification codes, recovery links). */
import { useState } from 'react';
import { listOutbox } from '../emulator/control.js';
import { EmailCard } from '../site/outbox-panel.js';
import { PageHeader } from '../ui/page.js';
import { QueryView } from '../ui/query-view.js';
import { useAdminClient } from './admin-client.js';
import { useControlQuery } from '../emulator/control-query.js';

/** The outbox, newest first, filterable by address. */
export function OutboxPage() {
  const client = useAdminClient();
  const [address, setAddress] = useState('');
  const filter = address.trim();
  const emails = useControlQuery(
    `outbox:${filter}`,
    client,
    (admin, signal) => listOutbox(admin, filter || undefined, signal),
    3_000,
  );
  return (
    <>
      <PageHeader title="Outbox" description="Nothing is ever sent: every email lands here, newest first." />
      <label className="field" style={{ maxWidth: 360 }}>
        Only emails to
        <input
          type="email"
          value={address}
          onChange={(event) => setAddress(event.target.value)}
          placeholder="someone@example.com"
        />
      </label>
      <QueryView
        query={emails}
        loading="Reading the outbox…"
        errorTitle="Could not read the outbox"
        emptyTitle="No email yet"
        emptyHint="Register or ask for a password reset in the site view."
      >
        {(list) => (
          <div className="stack">
            {list.map((email) => (
              <EmailCard key={email.id} email={email} full />
            ))}
          </div>
        )}
      </QueryView>
    </>
  );
}
