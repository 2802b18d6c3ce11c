/**
 * The emails the emulator "sent", read from its outbox: where a person (or a test) finds the
 * verification code or the recovery link, since nothing is ever really sent.
 */
import { useConsole } from '../app/console-context.js';
import { useControlQuery } from '../emulator/control-query.js';
import { listOutbox, type OutboxEmail } from '../emulator/control.js';
import { formatDateTime } from '../ui/format.js';
import { QueryView } from '../ui/query-view.js';

/** Props of {@link EmailCard}. */
export interface EmailCardProps {
  email: OutboxEmail;
  /** Offered next to a verification code: fills it in. */
  onUseCode?(code: string): void;
  /** Shows the recipient and the whole text (the admin outbox), not only the code or link. */
  full?: boolean;
}

/** One email: subject, time, and its code or link made easy to use. */
export function EmailCard({ email, onUseCode, full = false }: EmailCardProps) {
  return (
    <article className="mail">
      <div className="row-between">
        <strong>{email.subject}</strong>
        <span className="muted small">{formatDateTime(email.createdAt)}</span>
      </div>
      {full && <span className="muted small">To {email.to}</span>}
      {email.code && (
        <div className="row">
          <span className="code-chip" data-testid="outbox-code">
            {email.code}
          </span>
          {onUseCode && (
            <button type="button" className="secondary small" onClick={() => onUseCode(email.code ?? '')}>
              Use this code
            </button>
          )}
        </div>
      )}
      {email.link && (
        <a href={email.link} data-testid="outbox-link">
          {email.link}
        </a>
      )}
      {(full || (!email.code && !email.link)) && <pre>{email.text}</pre>}
    </article>
  );
}

/** Props of {@link OutboxPanel}. */
export interface OutboxPanelProps {
  /** Whose emails to show. */
  address: string;
  /** Offered next to a verification code: fills it in. */
  onUseCode?(code: string): void;
}

/** The latest emails to `address`, refreshed every two seconds while shown. */
export function OutboxPanel({ address, onUseCode }: OutboxPanelProps) {
  const { clients } = useConsole();
  const emails = useControlQuery(
    `outbox:${address}`,
    clients.admin,
    (admin, signal) => listOutbox(admin, address, signal),
    2_000,
  );
  return (
    <section className="card" aria-labelledby="outbox-title" data-testid="outbox-panel">
      <div className="row-between">
        <h2 id="outbox-title">Outbox</h2>
        <span className="muted small">{address}</span>
      </div>
      <p className="muted small">The emulator sends no email: what it would send lands here.</p>
      <QueryView
        query={emails}
        loading="Reading the outbox…"
        errorTitle="Could not read the outbox"
        emptyTitle="No email yet"
      >
        {(list) => list.slice(0, 3).map((email) => <EmailCard key={email.id} email={email} onUseCode={onUseCode} />)}
      </QueryView>
    </section>
  );
}
