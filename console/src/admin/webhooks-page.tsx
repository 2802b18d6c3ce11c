/** Admin: every attempt to deliver a domain event to the webhook URLs of the configuration. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '../app/router.js';
import { redeliver } from '../emulator/bench-control.js';
import { listWebhookDeliveries } from '../emulator/control.js';
import { DataTable } from '../ui/data-table.js';
import { formatTime, statusBadgeClass } from '../ui/format.js';
import { PageHeader } from '../ui/page.js';
import { QueryView } from '../ui/query-view.js';
import { useAdminClient } from './admin-client.js';
import { controlKey, useControlQuery } from '../emulator/control-query.js';
import { FormStatus } from '../ui/form-status.js';
import { WebhookTriggerPanel } from './webhook-trigger-panel.js';

/** The webhook delivery log, newest first. */
export function WebhooksPage() {
  const client = useAdminClient();
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
        description="Every write emits domain events, signed RS256 and posted to the webhook URLs; each attempt is listed here."
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
            Add a webhook URL in <Link to="/admin/config">Config</Link>, then write something.
          </span>
        }
      >
        {(attempts) => (
          <DataTable
            testId="deliveries-table"
            headings={['Time', 'Event', 'URL', 'Attempt', 'Result', '']}
            rows={attempts}
            rowKey={(delivery) => delivery.id}
            cells={(delivery) => (
              <>
                <td className="muted small">{formatTime(delivery.time)}</td>
                <td className="small mono">{delivery.eventType}</td>
                <td className="small mono cell-clip" title={delivery.url}>
                  {delivery.url}
                </td>
                <td>{delivery.attempt}</td>
                <td>
                  {delivery.error ? (
                    <span className="badge badge-danger" title={delivery.error}>
                      {delivery.status ?? 'failed'}: {delivery.error}
                    </span>
                  ) : (
                    <span className={`badge ${statusBadgeClass(delivery.status)}`}>{delivery.status ?? '—'}</span>
                  )}
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
            )}
          />
        )}
      </QueryView>
    </>
  );
}
