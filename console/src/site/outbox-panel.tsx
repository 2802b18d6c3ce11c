/**
 * The emails the emulator "sent" to one address, read from its outbox: where a person (or a
 * test) finds the verification code or the recovery link, since nothing is ever really sent.
 */
import { useQuery } from '@tanstack/react-query';
import { useConsole } from '../app/console-context.js';
import { listOutbox } from '../emulator/control.js';
import { ErrorNotice } from '../ui/error-notice.js';
import { formatTime } from '../ui/format.js';
import { EmptyState, Loading } from '../ui/states.js';

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
  const emails = useQuery({
    queryKey: ['sitekit-console', 'outbox', address],
    queryFn: ({ signal }) => listOutbox(clients.admin, address, signal),
    refetchInterval: 2_000,
  });
  return (
    <section className="card" aria-labelledby="outbox-title" data-testid="outbox-panel">
      <div className="row-between">
        <h2 id="outbox-title">Outbox</h2>
        <span className="muted small">{address}</span>
      </div>
      <p className="muted small">The emulator sends no email: what it would send lands here.</p>
      {emails.isPending && <Loading label="Reading the outbox…" />}
      {emails.isError && <ErrorNotice title="Could not read the outbox" error={emails.error} />}
      {emails.isSuccess && emails.data.length === 0 && <EmptyState title="No email yet" />}
      {emails.data?.slice(0, 3).map((email) => (
        <article className="mail" key={email.id}>
          <div className="row-between">
            <strong>{email.subject}</strong>
            <span className="muted small">{formatTime(email.createdAt)}</span>
          </div>
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
          {!email.code && !email.link && <pre>{email.text}</pre>}
        </article>
      ))}
    </section>
  );
}
