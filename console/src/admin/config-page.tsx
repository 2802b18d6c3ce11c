/** Admin: the emulator's settings (sign-in switches, token lifetime, webhook URLs...), each with its description. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { getConfig, updateConfig, type SettingValue } from '../emulator/control.js';
import { FormFooter } from '../ui/form-status.js';
import { PageHeader } from '../ui/page.js';
import { QueryView } from '../ui/query-view.js';
import { useAdminClient } from './admin-client.js';
import { controlKey, useControlQuery } from '../emulator/control-query.js';

/** A setting as its input holds it: lists of strings are edited one per line. */
function toDraft(value: SettingValue): string | boolean {
  if (typeof value === 'boolean') return value;
  return Array.isArray(value) ? value.join('\n') : String(value);
}

/** The draft back to the setting's type, guided by the current value's type. */
function fromDraft(draft: string | boolean, current: SettingValue): SettingValue {
  if (typeof current === 'boolean') return draft === true;
  const text = String(draft);
  if (typeof current === 'number') return text.trim() === '' ? Number.NaN : Number(text);
  if (Array.isArray(current))
    return text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
  return text;
}

/** Labels of the settings the emulator has today, in words a person reads (units included). */
const settingLabels: Record<string, string> = {
  emailVerificationRequired: 'Email verification required',
  ownerApprovalRequired: 'Owner approval required',
  captchaRequired: 'Captcha required',
  tokenLifetimeSeconds: 'Access token lifetime (seconds)',
  maxUploadBytes: 'Largest upload (bytes)',
  allowedRedirectOrigins: 'Allowed redirect origins',
  webhookUrls: 'Webhook URLs',
  webhookMaxAttempts: 'Webhook delivery attempts',
  webhookRetryBaseMs: 'Webhook retry delay (ms)',
};

/** Words that are written as abbreviations, in labels made from keys. */
const abbreviations: Record<string, string> = {
  url: 'URL',
  urls: 'URLs',
  id: 'ID',
  ids: 'IDs',
  api: 'API',
  cors: 'CORS',
  ms: '(ms)',
};

/**
 * A setting's label: its own (above), else one made from its key (`importsFromPrivateAddresses` →
 * "Imports from private addresses"), abbreviations kept as such.
 */
export function labelOf(key: string): string {
  const known = settingLabels[key];
  if (known) return known;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase()
    .split(' ')
    .map((word) => abbreviations[word] ?? word)
    .join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Every setting, edited together and saved at once. */
export function ConfigPage() {
  const client = useAdminClient();
  const queryClient = useQueryClient();
  const config = useControlQuery('config', client, (admin, signal) => getConfig(admin, signal));
  const [drafts, setDrafts] = useState<Record<string, string | boolean>>({});
  useEffect(() => {
    if (config.data)
      setDrafts(Object.fromEntries(Object.entries(config.data.config).map(([key, value]) => [key, toDraft(value)])));
  }, [config.data]);
  const save = useMutation({
    mutationFn: (changes: Record<string, SettingValue>) => updateConfig(client, changes),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: controlKey }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const current = config.data?.config ?? {};
    const changes = Object.fromEntries(
      Object.entries(drafts)
        .filter(([key]) => key in current)
        .map(([key, draft]) => [key, fromDraft(draft, current[key] as SettingValue)]),
    );
    save.mutate(changes);
  };
  return (
    <>
      <PageHeader
        title="Config"
        description="Switches of the emulator: sign-in rules, token lifetime, webhook URLs. They survive restarts."
      />
      <QueryView
        query={config}
        loading="Reading the settings…"
        errorTitle="Could not read the settings"
        isEmpty={(loaded) => Object.keys(loaded.config).length === 0}
        emptyTitle="The emulator has no settings"
      >
        {(loaded) => (
          <form className="card" onSubmit={submit} aria-label="Settings">
            {Object.entries(loaded.config).map(([key, value]) => {
              const description = loaded.descriptions[key];
              const draft = drafts[key] ?? toDraft(value);
              if (typeof value === 'boolean') {
                return (
                  <label key={key} className="check">
                    <input
                      type="checkbox"
                      checked={draft === true}
                      onChange={(event) => setDrafts({ ...drafts, [key]: event.target.checked })}
                    />
                    <span>
                      <strong>{labelOf(key)}</strong>
                      {description && <span className="muted small"> · {description}</span>}
                    </span>
                  </label>
                );
              }
              return (
                <label key={key} className="field">
                  {labelOf(key)}
                  {Array.isArray(value) ? (
                    <textarea
                      value={String(draft)}
                      onChange={(event) => setDrafts({ ...drafts, [key]: event.target.value })}
                      placeholder="One per line"
                    />
                  ) : (
                    <input
                      type={typeof value === 'number' ? 'number' : 'text'}
                      value={String(draft)}
                      onChange={(event) => setDrafts({ ...drafts, [key]: event.target.value })}
                    />
                  )}
                  {description && <span className="hint">{description}</span>}
                </label>
              );
            })}
            {/* The form is long: its button stays in sight at the bottom of the window. */}
            <div className="sticky-actions">
              <FormFooter
                mutation={save}
                errorTitle="The settings were not saved"
                successText="Settings saved."
                submitLabel="Save settings"
                pendingLabel="Saving…"
              />
            </div>
          </form>
        )}
      </QueryView>
    </>
  );
}
