/** The heading block every page starts with. */
import { useEffect, type ReactNode } from 'react';

/** Props of {@link PageHeader}. */
export interface PageHeaderProps {
  title: string;
  description?: ReactNode;
  /** Buttons shown on the right. */
  actions?: ReactNode;
}

/** The page's title (also the document title) and a one-line description. */
export function PageHeader({ title, description, actions }: PageHeaderProps) {
  useEffect(() => {
    document.title = `${title} · sitekit console`;
  }, [title]);
  return (
    <header className="page-head">
      <div>
        <h1>{title}</h1>
        {description && <p>{description}</p>}
      </div>
      {actions && <div className="row">{actions}</div>}
    </header>
  );
}
