/**
 * Choosing files and uploading them one after another with the provider's client (`useUpload`),
 * with a progress bar, a cancel button and the error in words.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ChangeEvent } from 'react';
import type { FileDescriptor } from 'sitekit-sdk';
import { useUpload } from 'sitekit-sdk/react';
import { ErrorNotice } from '../ui/error-notice.js';
import { ProgressBar } from '../ui/states.js';
import { mediaKey } from './use-files.js';

/** Props of {@link UploadPanel}. */
export interface UploadPanelProps {
  /** Called after each finished upload (the media queries are refreshed already). */
  onUploaded?(file: FileDescriptor): void;
}

/** A file picker that uploads what is picked, showing the progress of the file being sent. */
export function UploadPanel({ onUploaded }: UploadPanelProps) {
  const { upload, abort, progress, status, error } = useUpload();
  const queryClient = useQueryClient();
  const [queue, setQueue] = useState<{ index: number; count: number; name: string } | null>(null);

  const onPick = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    // One at a time: useUpload keeps one upload in flight (a new one would abort the current one).
    for (const [index, file] of files.entries()) {
      setQueue({ index, count: files.length, name: file.name });
      const uploaded = await upload(file, {
        fileName: file.name,
        mimeType: file.type || 'application/octet-stream',
      }).catch(() => null);
      if (!uploaded) break;
      // An upload is not a TanStack mutation: the file lists learn about it here.
      void queryClient.invalidateQueries({ queryKey: mediaKey });
      onUploaded?.(uploaded);
    }
    setQueue(null);
  };

  return (
    <div className="stack" data-testid="upload-panel">
      <div className="row">
        <label className="button">
          Choose files…
          <input
            type="file"
            multiple
            className="visually-hidden"
            onChange={(event) => void onPick(event)}
            data-testid="upload-input"
          />
        </label>
        <span className="muted small">Images show a thumbnail once uploaded. Files over 10 MB are sent resumably.</span>
      </div>
      {status === 'uploading' && queue && (
        <div className="stack">
          <div className="row-between">
            <span>
              Uploading <strong>{queue.name}</strong>
              {queue.count > 1 ? ` (${queue.index + 1} of ${queue.count})` : ''} · {Math.round(progress * 100)}%
            </span>
            <button type="button" className="secondary small" onClick={abort}>
              Cancel
            </button>
          </div>
          <ProgressBar value={progress} label={`Uploading ${queue.name}`} />
        </div>
      )}
      {status === 'aborted' && (
        <div className="notice notice-info" role="status">
          Upload cancelled.
        </div>
      )}
      {status === 'error' && error && <ErrorNotice title="The upload failed" error={error} />}
    </div>
  );
}
