/** Test bench: fault rules (add, see how often each fired, remove). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { addFault, clearFaults, listFaults, removeFault, type FaultInput } from '../../emulator/bench-control.js';
import { controlKey, useControlQuery } from '../../emulator/control-query.js';
import { DataTable } from '../../ui/data-table.js';
import { FormStatus, SubmitButton } from '../../ui/form-status.js';
import { useAdminClient } from '../admin-client.js';

/** The form's fields, as typed (empty: not set). */
interface Draft {
  operation: string;
  path: string;
  status: string;
  times: string;
  retryAfterSeconds: string;
  latencyMs: string;
}

const emptyDraft: Draft = { operation: '', path: '', status: '503', times: '', retryAfterSeconds: '', latencyMs: '' };

/** The rule a draft describes: its filled fields only, numbers as numbers (the emulator checks them). */
function ruleOf(draft: Draft): FaultInput {
  const rule: FaultInput = {};
  // A typed name is sent as typed: the emulator refuses an unknown one with the nearest names.
  if (draft.operation.trim()) rule.operation = draft.operation.trim() as FaultInput['operation'];
  if (draft.path.trim()) rule.path = draft.path.trim();
  for (const key of ['status', 'times', 'retryAfterSeconds', 'latencyMs'] as const)
    if (draft[key].trim() !== '') rule[key] = Number(draft[key]);
  return rule;
}

/** The form that adds a rule, and the rules in force. */
export function FaultsPanel() {
  const client = useAdminClient();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const faults = useControlQuery('faults', client, (admin, signal) => listFaults(admin, signal), 2_000);
  const refresh = () => queryClient.invalidateQueries({ queryKey: [...controlKey, 'faults'] });
  const add = useMutation({ mutationFn: (rule: FaultInput) => addFault(client, rule), onSuccess: refresh });
  const remove = useMutation({
    mutationFn: (id: string | 'all') => (id == 'all' ? clearFaults(client) : removeFault(client, id)),
    onSuccess: refresh,
  });
  const field = (key: keyof Draft, label: string, placeholder: string) => (
    <label className="field">
      {label}
      <input
        value={draft[key]}
        placeholder={placeholder}
        onChange={(event) => setDraft({ ...draft, [key]: event.target.value })}
      />
    </label>
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(ruleOf(draft), { onSuccess: () => setDraft(emptyDraft) });
  };
  const rules = faults.data ?? [];
  return (
    <section className="card stack" aria-label="Faults">
      <h2>Faults</h2>
      <p className="muted small">
        Matching calls fail with the platform's error shape (status 0 drops the connection), or arrive late. The control
        API is never faulted.
      </p>
      <form className="stack" onSubmit={submit} aria-label="Add a fault">
        <div className="row">
          {field('operation', 'Operation', 'e.g. items.query')}
          {field('path', 'Path prefix', '/wix-data/')}
          {field('status', 'Status', '503, 429, 0…')}
          {field('times', 'Times', 'every call')}
          {field('retryAfterSeconds', 'Retry-After (s)', 'none')}
          {field('latencyMs', 'Latency (ms)', 'none')}
        </div>
        <div className="row">
          <SubmitButton pending={add.isPending} pendingLabel="Adding…">
            Add fault
          </SubmitButton>
        </div>
        <FormStatus mutation={add} errorTitle="Could not add the fault" />
      </form>
      {rules.length > 0 && (
        <>
          <DataTable
            testId="faults-table"
            headings={['Operation', 'Path', 'Status', 'Times', 'Fired', '']}
            rows={rules}
            rowKey={(rule) => rule.id}
            cells={(rule) => (
              <>
                <td className="mono small">{rule.operation ?? 'any'}</td>
                <td className="mono small">{rule.path ?? '—'}</td>
                <td>
                  {rule.status ?? 'real answer'}
                  {rule.latencyMs ? ` after ${rule.latencyMs} ms` : ''}
                  {rule.retryAfterSeconds !== undefined ? `, Retry-After ${rule.retryAfterSeconds}` : ''}
                </td>
                <td>{rule.times ?? '∞'}</td>
                <td data-testid="fault-fired">{rule.fired}</td>
                <td>
                  <button
                    type="button"
                    className="secondary small"
                    disabled={remove.isPending}
                    onClick={() => remove.mutate(rule.id)}
                  >
                    Remove
                  </button>
                </td>
              </>
            )}
          />
          <div className="row">
            <button
              type="button"
              className="secondary"
              disabled={remove.isPending}
              onClick={() => remove.mutate('all')}
            >
              Remove all
            </button>
          </div>
        </>
      )}
      <FormStatus mutation={remove} errorTitle="Could not remove the fault" />
    </section>
  );
}
