/** Site: upload images as the visitor or member, with progress, and see their thumbnails. */
import { useState } from 'react';
import type { FileDescriptor } from 'sitekit-sdk';
import { useClient } from 'sitekit-sdk/react';
import { FileCard } from '../media/file-card.js';
import { UploadPanel } from '../media/upload-panel.js';
import { useFiles } from '../media/use-files.js';
import { PageHeader } from '../ui/page.js';
import { QueryView } from '../ui/query-view.js';

/** Upload files and browse the site's media. */
export function UploadsPage() {
  const client = useClient();
  const files = useFiles(client);
  const [uploaded, setUploaded] = useState<FileDescriptor[]>([]);
  const onUploaded = (file: FileDescriptor) => setUploaded((previous) => [file, ...previous]);
  return (
    <>
      <PageHeader
        title="Uploads"
        description="Upload files to the site's Media Manager with this visitor's or member's client."
      />
      <section className="card" aria-labelledby="upload-title">
        <h2 id="upload-title">Upload</h2>
        <UploadPanel onUploaded={onUploaded} />
        {uploaded.length > 0 && (
          <div className="thumbs" aria-label="Uploaded just now" data-testid="uploaded-files">
            {uploaded.map((file) => (
              <FileCard key={file._id} file={file} />
            ))}
          </div>
        )}
      </section>
      <section className="card" aria-labelledby="library-title">
        <h2 id="library-title">Site media</h2>
        <QueryView
          query={files}
          loading="Loading files…"
          errorTitle="Could not list the files"
          emptyTitle="No files yet"
          emptyHint="Upload one above."
        >
          {(list) => (
            <div className="thumbs">
              {list.map((file) => (
                <FileCard key={file._id} file={file} />
              ))}
            </div>
          )}
        </QueryView>
      </section>
    </>
  );
}
