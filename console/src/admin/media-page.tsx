/** Admin: the media library, with upload, delete to the trash, and restore. */
import { useMutation } from '@tanstack/react-query';
import { useState, type KeyboardEvent } from 'react';
import { mutationOptions } from 'sitekit-sdk/react';
import { FileCard } from '../media/file-card.js';
import { UploadPanel } from '../media/upload-panel.js';
import { useFiles } from '../media/use-files.js';
import { FormStatus } from '../ui/form-status.js';
import { PageHeader } from '../ui/page.js';
import { QueryView } from '../ui/query-view.js';
import { useAdminClient } from './admin-client.js';

const tabs = [
  { id: 'library', label: 'Library' },
  { id: 'trash', label: 'Trash' },
] as const;

/** The media library and its trash, as tabs (arrow keys move between them, as in any tab list). */
export function MediaPage() {
  const [tab, setTab] = useState<(typeof tabs)[number]['id']>('library');
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const next = tabs[(tabs.findIndex((candidate) => candidate.id === tab) + 1) % tabs.length]!;
    setTab(next.id);
    document.getElementById(`media-tab-${next.id}`)?.focus();
  };
  return (
    <>
      <PageHeader title="Media" description="The site's Media Manager: uploads, the trash and restoring from it." />
      <div className="tabs" role="tablist" aria-label="Media" onKeyDown={onKeyDown}>
        {tabs.map((candidate) => (
          <button
            key={candidate.id}
            id={`media-tab-${candidate.id}`}
            type="button"
            role="tab"
            aria-selected={tab === candidate.id}
            aria-controls="media-panel"
            tabIndex={tab === candidate.id ? 0 : -1}
            onClick={() => setTab(candidate.id)}
          >
            {candidate.label}
          </button>
        ))}
      </div>
      <div id="media-panel" role="tabpanel" aria-labelledby={`media-tab-${tab}`}>
        {tab === 'library' ? <Library /> : <Trash />}
      </div>
    </>
  );
}

function useSelection() {
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const toggle = (id: string) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return { selected, toggle, clear: () => setSelected(new Set()) };
}

function Library() {
  const client = useAdminClient();
  const files = useFiles(client);
  const { selected, toggle, clear } = useSelection();
  const remove = useMutation({
    ...mutationOptions(client, (c, ids: string[]) => c.media.bulkDeleteFiles(ids)),
    onSuccess: clear,
  });
  return (
    <section className="stack" aria-label="Library">
      <div className="card">
        <UploadPanel />
      </div>
      {files.isSuccess && files.data.length > 0 && (
        <div className="row-between">
          <span className="muted">
            {files.data.length} file{files.data.length === 1 ? '' : 's'}
            {selected.size > 0 ? `, ${selected.size} selected` : ''}
          </span>
          <button
            type="button"
            className="danger"
            disabled={selected.size === 0 || remove.isPending}
            onClick={() => remove.mutate([...selected])}
          >
            Move to trash{selected.size > 0 ? ` (${selected.size})` : ''}
          </button>
        </div>
      )}
      <FormStatus mutation={remove} errorTitle="Could not delete the files" />
      <QueryView
        query={files}
        loading="Loading files…"
        errorTitle="Could not list the files"
        emptyTitle="The library is empty"
        emptyHint="Upload a file above."
      >
        {(list) => (
          <div className="thumbs" data-testid="media-library">
            {list.map((file) => (
              <FileCard key={file._id} file={file} selected={selected.has(file._id ?? '')}>
                <label className="check">
                  <input
                    type="checkbox"
                    checked={selected.has(file._id ?? '')}
                    onChange={() => toggle(file._id ?? '')}
                    aria-label={`Select ${file.displayName ?? file._id}`}
                  />
                  Select
                </label>
              </FileCard>
            ))}
          </div>
        )}
      </QueryView>
    </section>
  );
}

function Trash() {
  const client = useAdminClient();
  const files = useFiles(client, { trash: true });
  const restore = useMutation(mutationOptions(client, (c, ids: string[]) => c.media.bulkRestoreFilesFromTrashBin(ids)));
  return (
    <section className="stack" aria-label="Trash">
      <FormStatus mutation={restore} errorTitle="Could not restore the file" />
      <QueryView
        query={files}
        loading="Loading the trash…"
        errorTitle="Could not list the trash"
        emptyTitle="The trash is empty"
        emptyHint="Deleted files wait here until they are restored."
      >
        {(list) => (
          <div className="thumbs">
            {list.map((file) => (
              <FileCard key={file._id} file={file}>
                <button
                  type="button"
                  className="secondary small"
                  disabled={restore.isPending}
                  onClick={() => restore.mutate([file._id ?? ''])}
                >
                  Restore
                </button>
              </FileCard>
            ))}
          </div>
        )}
      </QueryView>
    </section>
  );
}
