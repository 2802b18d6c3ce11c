/** Admin: every attempt to deliver a domain event to the webhook URLs of the configuration. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from '../app/router.js';
import { redeliver } from '../emulator/bench-control.js';
import { listWebhookDeliveries, type WebhookDelivery } from '../emulator/control.js';
import { DataTable } from '../ui/data-table.js';
import { FactList } from '../ui/fact-list.js';
import { Dialog } from '../ui/dialog.js';
import { formatTime, statusBadgeClass } from '../ui/format.js';
import { PageHeader } from '../ui/page.js';
import { QueryView } from '../ui/query-view.js';
import { useAdminClient } from './admin-client.js';
import { controlKey, useControlQuery } from '../emulator/control-query.js';
import { FormStatus } from '../ui/form-status.js';
import { WebhookTriggerPanel } from './webhook-trigger-panel.js';

/** How an attempt ended, in words and a badge colour. */
function resultOf(delivery: WebhookDelivery): { text: string; badge: string; title?: string } {
  const status = delivery.status === undefined ? '' : `${delivery.status} `;
  switch (delivery.outcome) {
    case 'sending':
      return { text: 'sending…', badge: '' };
    case 'refused':
      return {
        text: `${status}refused, as it should`,
        badge: 'badge-ok',
        title: 'The event was signed with a wrong key on purpose, and the receiver refused it.',
      };
    case 'accepted-bad-signature':
      return {
        text: `${status}accepted a bad signature`,
        badge: 'badge-danger',
        title: 'The receiver answered 2xx to an event signed with a wrong key: it does not check signatures.',
      };
    case 'failed':
      return { text: `failed: ${delivery.error ?? 'no answer'}`, badge: 'badge-danger', title: delivery.error };
    default:
      return { text: String(delivery.status ?? '—'), badge: statusBadgeClass(delivery.status) };
  }
}

/** The webhook delivery log, newest first; a row opens to the event's payload. */
export function WebhooksPage() {
  const client = useAdminClient();
  const [opened, setOpened] = useState<WebhookDelivery | null>(null);
  const deliveries = useControlQuery(
    'webhooks',
    client,
    (admin, signal) => listWebhookDeliveries(admin, signal),
    3_000,
  );
  const queryClient = useQueryClient();
  const resend = useMutation({
    mutationFn: (deliveryId: string) => redeliver(client, deliveryId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...controlKey, 'webhooks'] }),
  });
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Every write emits domain events, signed RS256 and posted to the webhook URLs; each attempt is listed here as it is sent. Open an event for its payload."
      />
      <WebhookTriggerPanel />
      <FormStatus mutation={resend} errorTitle="Could not send the event again" />
      <QueryView
        query={deliveries}
        loading="Reading the delivery log…"
        errorTitle="Could not read the delivery log"
        emptyTitle="No deliveries yet"
        emptyHint={
          <span>
            Add a webhook URL in <Link to="/admin/config">Config</Link>, then write something, or send an event above.
          </span>
        }
      >
        {(attempts) => (
          <DataTable
            testId="deliveries-table"
            headings={['Time', 'Event', 'URL', 'Attempt', 'Result', '']}
            rows={attempts}
            rowKey={(delivery) => delivery.id}
            cells={(delivery) => {
              const result = resultOf(delivery);
              return (
                <>
                  <td className="muted small">{formatTime(delivery.time)}</td>
                  <td className="small mono">
                    <button
                      type="button"
                      className="link-button"
                      aria-label={`Open ${delivery.eventType} (attempt ${delivery.attempt})`}
                      onClick={() => setOpened(delivery)}
                    >
                      {delivery.eventType}
                    </button>
                    {delivery.badSignature && (
                      <span className="badge badge-warn" title="Signed with a wrong key on purpose">
                        bad signature
                      </span>
                    )}
                  </td>
                  <td className="small mono cell-clip" title={delivery.url}>
                    {delivery.url}
                  </td>
                  <td>{delivery.attempt}</td>
                  <td>
                    <span className={`badge ${result.badge}`} title={result.title}>
                      {result.text}
                    </span>
                  </td>
                  <td>
                    <button
                      type="button"
                      className="secondary small"
                      disabled={resend.isPending}
                      onClick={() => resend.mutate(delivery.id)}
                    >
                      Resend
                    </button>
                  </td>
                </>
              );
            }}
          />
        )}
      </QueryView>
      <Dialog open={opened !== null} title={opened ? opened.eventType : 'Delivery'} onClose={() => setOpened(null)}>
        {opened && <DeliveryDetails delivery={opened} />}
      </Dialog>
    </>
  );
}

/** One attempt in full: where it went, how it ended, and the payload the receiver verifies. */
function DeliveryDetails({ delivery }: { delivery: WebhookDelivery }) {
  const result = resultOf(delivery);
  const facts: [string, string][] = [
    ['Time', new Date(delivery.time).toLocaleString()],
    ['URL', delivery.url],
    ['Attempt', String(delivery.attempt)],
    ['Result', result.text],
    ['Signature', delivery.badSignature ? 'a wrong key, on purpose: the app must refuse it' : 'the site’s key'],
    ['Event id', delivery.eventId],
    ['Duration', delivery.outcome === 'sending' ? '—' : `${delivery.durationMs} ms`],
  ];
  return (
    <div className="stack" data-testid="delivery-details">
      <FactList facts={facts} />
      <h3>Payload</h3>
      <pre className="body-text" data-testid="delivery-payload">
        {delivery.payload ? JSON.stringify(delivery.payload, null, 2) : '(not kept)'}
      </pre>
      <p className="muted small">
        The body is a JWT signed RS256; this is its <code>data</code> claim, with <code>identity</code> and{' '}
        <code>data</code> parsed (they travel as JSON strings). <code>client.webhooks.process</code> verifies and reads
        it.
      </p>
    </div>
  );
}
