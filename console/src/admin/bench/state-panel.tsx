/**
 * Test bench: the site's whole state saved to a file and loaded back (GET and POST
 * /_emulator/import, the format `--seed` and `pull` read), so a person can keep a state and
 * return to it without the CLI.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangeEvent } from 'react';
import { ValidationError } from 'sitekit-sdk';
import { exportState, importState, type ImportResult } from '../../emulator/control.js';
import { FormStatus } from '../../ui/form-status.js';
import { useAdminClient } from '../admin-client.js';

/** The downloaded file's name: the export's time, so two exports do not overwrite each other. */
export const exportFileName = (exportedAt: string): string => `sitekit-state-${exportedAt.replace(/[:.]/g, '-')}.json`;

/** Hands `text` to the browser as a download named `name`. */
function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // The click has started the download; the blob is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * A chosen file's JSON. A file that is not JSON never reaches the emulator: it is a
 * ValidationError naming the file, like the emulator's own answer to a malformed export.
 */
export async function readStateFile(file: File): Promise<Record<string, unknown>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await file.text());
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ValidationError({
      violations: [{ field: file.name, description: `is not a JSON export (${reason})` }],
    });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new ValidationError({
      violations: [{ field: file.name, description: 'must hold one JSON object (the format of an export)' }],
    });
  return parsed as Record<string, unknown>;
}

/** What an import wrote, in words: "3 collections, 12 items, 2 members". */
function describeImport(result: ImportResult): string {
  const counts = result.entities ?? result.tables ?? {};
  const parts = Object.entries(counts).map(([section, count]) => `${count} ${section}`);
  return parts.length ? parts.join(', ') : 'nothing to write';
}

/** Export and import buttons, with how the last of each went. */
export function StatePanel() {
  const client = useAdminClient();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: async () => {
      const state = await exportState(client);
      download(exportFileName(state.exportedAt), `${JSON.stringify(state, null, 2)}\n`);
      return state;
    },
  });
  const load = useMutation({
    mutationFn: async (file: File) => importState(client, await readStateFile(file)),
    // Every page's data may have changed.
    onSuccess: () => queryClient.invalidateQueries(),
  });
  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared, so choosing the same file again imports it again.
    event.target.value = '';
    if (file) load.mutate(file);
  };
  return (
    <section className="card stack" aria-label="Site state">
      <h2>Site state</h2>
      <p className="muted small">
        Save every collection, item, member, file and setting to a JSON file, and load such a file back: it replaces the
        whole state. The same file works with <code>--seed</code> and POST /_emulator/import.
      </p>
      <div className="row">
        <button type="button" className="secondary" disabled={save.isPending} onClick={() => save.mutate()}>
          {save.isPending ? 'Exporting…' : 'Export to a file'}
        </button>
        <label className="button secondary">
          {load.isPending ? 'Importing…' : 'Import a file…'}
          <input
            type="file"
            accept="application/json,.json"
            className="visually-hidden"
            disabled={load.isPending}
            onChange={onPick}
            data-testid="state-import-input"
          />
        </label>
      </div>
      <FormStatus
        mutation={save}
        errorTitle="Could not export the state"
        successText={save.data && `Exported ${exportFileName(save.data.exportedAt)}.`}
      />
      <FormStatus
        mutation={load}
        errorTitle="Could not import the file (the state is unchanged)"
        successText={load.data && `Imported: ${describeImport(load.data)}.`}
      />
    </section>
  );
}
