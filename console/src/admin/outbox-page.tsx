/** Admin: every email the emulator would have sent (verification codes, recovery links). */
import { useState } from 'react';
import { listOutbox } from '../emulator/control.js';
import { ErrorNotice } from '../ui/error-notice.js';
import { formatDateTime } from '../ui/format.js';
import { PageHeader } from '../ui/page.js';
import { EmptyState, Loading } from '../ui/states.js';
import { useAdminClient } from './admin-client.js';
import { useControlQuery } from './control-query.js';

/** The outbox, newest first, filterable by address. */
export function OutboxPage() {
  const client = useAdminClient();
  const [address, setAddress] = useState('');
  const filter = address.trim();
  const emails = useControlQuery(`outbox:${filter}`, client, (admin, signal) => listOutbox(admin, filter || undefined, signal), 3_000);
  return (
    <>
      <PageHeader title="Outbox" description="Nothing is ever sent: every email lands here, newest first." />
      <label className="field" style={{ maxWidth: 360 }}>
        Only emails to
        <input type="email" value={address} onChange={(event) => setAddress(event.target.value)} placeholder="someone@example.com" />
      </label>
      {emails.isPending && <Loading label="Reading the outbox…" />}
      {emails.isError && <ErrorNotice title="Could not read the outbox" error={emails.error} />}
      {emails.isSuccess && emails.data.length === 0 && (
        <EmptyState title="No email yet">
          <span>Register or ask for a password reset in the site view.</span>
        </EmptyState>
      )}
      <div className="stack">
        {emails.data?.map((email) => (
          <article className="mail" key={email.id}>
            <div className="row-between">
              <strong>{email.subject}</strong>
              <span className="muted small">{formatDateTime(email.createdAt)}</span>
            </div>
            <span className="muted small">To {email.to}</span>
            {email.code && <span className="code-chip">{email.code}</span>}
            {email.link && <a href={email.link}>{email.link}</a>}
            <pre>{email.text}</pre>
          </article>
        ))}
      </div>
    </>
  );
}
