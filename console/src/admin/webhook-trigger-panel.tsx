/** Admin, Webhooks: send a signed domain event of any type now (to a URL, or the configured webhook URLs). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { TRIGGER_EVENT_TYPES } from '../../../emulator/services/webhooks/event-types.js';
import { triggerEvent, type TriggerRequest } from '../emulator/bench-control.js';
import { controlKey } from '../emulator/control-query.js';
import { FormStatus, SubmitButton } from '../ui/form-status.js';
import { useAdminClient } from './admin-client.js';

/** The form: event type, entity, where to send it, and whether to sign it wrongly. */
export function WebhookTriggerPanel() {
  const client = useAdminClient();
  const queryClient = useQueryClient();
  const [eventType, setEventType] = useState(TRIGGER_EVENT_TYPES[0]!);
  const [collection, setCollection] = useState('');
  const [id, setId] = useState('');
  const [url, setUrl] = useState('');
  const [badSignature, setBadSignature] = useState(false);
  const trigger = useMutation({
    mutationFn: (request: TriggerRequest) => triggerEvent(client, request),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...controlKey, 'webhooks'] }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    trigger.mutate({
      eventType,
      ...(collection.trim() ? { collection: collection.trim() } : {}),
      ...(id.trim() ? { id: id.trim() } : {}),
      ...(url.trim() ? { urls: [url.trim()] } : {}),
      ...(badSignature ? { badSignature } : {}),
    });
  };
  return (
    <form className="card stack" onSubmit={submit} aria-label="Trigger an event">
      <h2>Trigger an event</h2>
      <div className="row">
        <label className="field">
          Event type
          <select value={eventType} onChange={(event) => setEventType(event.target.value)}>
            {TRIGGER_EVENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Collection
          <input value={collection} placeholder="Movies" onChange={(event) => setCollection(event.target.value)} />
        </label>
        <label className="field">
          Entity id
          <input value={id} placeholder="the first there is" onChange={(event) => setId(event.target.value)} />
        </label>
        <label className="field field-wide">
          Send to
          <input
            value={url}
            placeholder="the webhook URLs of Config"
            onChange={(event) => setUrl(event.target.value)}
          />
        </label>
      </div>
      <label className="check">
        <input type="checkbox" checked={badSignature} onChange={(event) => setBadSignature(event.target.checked)} />
        Sign it with a wrong key (the app must refuse it)
      </label>
      <div className="row">
        <SubmitButton pending={trigger.isPending} pendingLabel="Sending…">
          Send event
        </SubmitButton>
      </div>
      <FormStatus
        mutation={trigger}
        errorTitle="Could not send the event"
        successText={trigger.data && `Sent ${trigger.data.eventType} of ${trigger.data.entityId}.`}
      />
    </form>
  );
}
