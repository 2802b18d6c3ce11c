/**
 * Admin: a collection's TypeScript interface, as `sitekit-sdk types` writes it (the same generator,
 * cli/site-types.ts), ready to copy into an app.
 */
import { useState } from 'react';
import type { DataCollection } from 'sitekit-sdk';
import { collectionInterface } from '../../../cli/site-types.js';

/** Props of {@link TypesCard}. */
export interface TypesCardProps {
  collection: DataCollection;
}

/** The collection's generated interface, with a button that copies it. */
export function TypesCard({ collection }: TypesCardProps) {
  const source = collectionInterface(collection);
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  // Browsers give a clipboard to secure contexts only: over plain HTTP on a host name other than
  // localhost (the console behind a Docker service name) there is none, which is a refusal too.
  const copy = () =>
    (navigator.clipboard?.writeText(source) ?? Promise.reject(new Error('no clipboard'))).then(
      () => setCopied('copied'),
      () => setCopied('failed'),
    );
  return (
    <section className="card" aria-labelledby="types-title">
      <h2 id="types-title">TypeScript</h2>
      <p className="muted small">
        The interface <code>npx sitekit-sdk types</code> writes for this collection. That command also registers every
        collection with the client, so that <code>client.items.query('{collection._id}')</code> is typed without a
        generic.
      </p>
      <pre className="body-text mono" data-testid="collection-interface">
        {source}
      </pre>
      <div className="row">
        <button type="button" className="secondary small" onClick={copy}>
          Copy interface
        </button>
        <span className="muted small" role="status">
          {copied === 'copied'
            ? 'Copied.'
            : copied === 'failed'
              ? 'The browser refused the clipboard: select the text instead.'
              : ''}
        </span>
      </div>
    </section>
  );
}
