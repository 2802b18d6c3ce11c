/**
 * Test bench: named snapshots of the site (`/_emulator/snapshots`): save the whole state under a
 * name, put it back with one click, as often as wanted; what tests do with `emulator.snapshots`.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { listSnapshots, removeSnapshot, restoreSnapshot, saveSnapshot } from '../../emulator/bench-control.js';
import { controlKey, useControlQuery } from '../../emulator/control-query.js';
import { DataTable } from '../../ui/data-table.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { FormStatus, SubmitButton } from '../../ui/form-status.js';
import { formatBytes, formatDateTime } from '../../ui/format.js';
import { useAdminClient } from '../admin-client.js';

/** The save form, and the snapshots with a restore and a delete button each. */
export function SnapshotsPanel() {
  const client = useAdminClient();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const snapshots = useControlQuery('snapshots', client, (admin, signal) => listSnapshots(admin, signal));
  const refresh = () => queryClient.invalidateQueries({ queryKey: [...controlKey, 'snapshots'] });
  const save = useMutation({
    mutationFn: (snapshotName: string) => saveSnapshot(client, snapshotName),
    onSuccess: () => {
      setName('');
      return refresh();
    },
  });
  const restore = useMutation({
    mutationFn: (snapshotName: string) => restoreSnapshot(client, snapshotName),
    // Every page's data may have changed.
    onSuccess: () => queryClient.invalidateQueries(),
  });
  const remove = useMutation({
    mutationFn: (snapshotName: string) => removeSnapshot(client, snapshotName),
    onSuccess: refresh,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Sent as typed: the emulator says what a name may hold.
    save.mutate(name.trim());
  };
  const busy = save.isPending || restore.isPending || remove.isPending;
  const list = snapshots.data ?? [];
  return (
    <section className="card stack" aria-label="Snapshots">
      <h2>Snapshots</h2>
      <p className="muted small">
        Save every collection, item, member, session, setting and media file under a name, and put it back in one step,
        as often as you like. The clock, the faults and the request log are not part of a snapshot. Tests do the same
        with <code>emulator.snapshots</code>.
      </p>
      <form className="row" onSubmit={submit} aria-label="Save a snapshot">
        <label className="field">
          Name
          <input
            value={name}
            required
            maxLength={64}
            placeholder="e.g. signed-up"
            onChange={(event) => setName(event.target.value)}
          />
        </label>
        <SubmitButton pending={save.isPending} pendingLabel="Saving…" disabled={busy}>
          Save snapshot
        </SubmitButton>
      </form>
      <FormStatus
        mutation={save}
        errorTitle="Could not save the snapshot"
        successText={
          save.data &&
          `Saved ${save.data.name} (${formatBytes(save.data.sizeBytes)})${save.data.replaced ? ', replacing the one of that name' : ''}.`
        }
      />
      {snapshots.isError && <ErrorNotice title="Could not read the snapshots" error={snapshots.error} />}
      {list.length > 0 && (
        <DataTable
          testId="snapshots-table"
          headings={['Name', 'Saved', 'Size', '']}
          rows={list}
          rowKey={(snapshot) => snapshot.name}
          cells={(snapshot) => (
            <>
              <td className="mono small">{snapshot.name}</td>
              <td>{formatDateTime(snapshot.createdAt)}</td>
              <td>{formatBytes(snapshot.sizeBytes)}</td>
              <td>
                <div className="row">
                  <button
                    type="button"
                    className="secondary small"
                    disabled={busy}
                    onClick={() => restore.mutate(snapshot.name)}
                  >
                    Restore
                  </button>
                  <button
                    type="button"
                    className="secondary small"
                    disabled={busy}
                    onClick={() => remove.mutate(snapshot.name)}
                  >
                    Delete
                  </button>
                </div>
              </td>
            </>
          )}
        />
      )}
      {snapshots.isSuccess && list.length == 0 && <p className="muted small">No snapshot yet.</p>}
      <FormStatus
        mutation={restore}
        errorTitle="Could not restore the snapshot (the state is unchanged)"
        successText={restore.data && `Restored ${restore.data.name}, saved ${formatDateTime(restore.data.createdAt)}.`}
      />
      <FormStatus mutation={remove} errorTitle="Could not delete the snapshot" />
    </section>
  );
}
