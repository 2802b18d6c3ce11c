/** A file of the Media Manager as a card: its thumbnail (images), name, type and size. */
import type { ReactNode } from 'react';
import type { FileDescriptor } from 'sitekit-sdk';
import { formatBytes } from '../ui/format.js';

/** Props of {@link FileCard}. */
export interface FileCardProps {
  file: FileDescriptor;
  /** Controls shown under the file's facts (select box, restore button...). */
  children?: ReactNode;
  selected?: boolean;
}

/** The thumbnail of an image, or a labelled placeholder for other media. */
export function FileCard({ file, children, selected = false }: FileCardProps) {
  const name = file.displayName || file._id || 'file';
  const preview = file.mediaType === 'IMAGE' ? file.thumbnailUrl || file.url : undefined;
  return (
    <figure className={`thumb${selected ? ' selected' : ''}`} style={{ margin: 0 }} data-testid="file-card">
      {preview ? (
        <img src={preview} alt={name} loading="lazy" />
      ) : (
        <div className="placeholder">{file.mediaType ?? 'FILE'}</div>
      )}
      <figcaption className="meta">
        <span className="name" title={name}>
          {name}
        </span>
        <span className="muted">
          {file.mediaType?.toLowerCase() ?? 'file'} · {formatBytes(file.sizeInBytes)}
          {file.operationStatus && file.operationStatus !== 'READY' ? ` · ${file.operationStatus.toLowerCase()}` : ''}
        </span>
        {children}
      </figcaption>
    </figure>
  );
}
