/** Every page of the console, by path. Admin pages run on the elevated client, site pages on the visitor's. */
import type { ReactNode } from 'react';
import { BenchPage } from '../admin/bench/bench-page.js';
import { CollectionsPage } from '../admin/collections-page.js';
import { CollectionPage } from '../admin/collection-page.js';
import { ConfigPage } from '../admin/config-page.js';
import { ItemsPage } from '../admin/items-page.js';
import { MediaPage } from '../admin/media-page.js';
import { MembersPage } from '../admin/members-page.js';
import { OutboxPage } from '../admin/outbox-page.js';
import { RequestsPage } from '../admin/requests-page.js';
import { WebhooksPage } from '../admin/webhooks-page.js';
import { HomePage } from '../site/home-page.js';
import { BrowsePage } from '../site/browse-page.js';
import { CallbackPage } from '../site/callback-page.js';
import { ProfilePage } from '../site/profile-page.js';
import { RecoverPage } from '../site/recover-page.js';
import { RegisterPage } from '../site/register-page.js';
import { ResetPasswordPage } from '../site/reset-password-page.js';
import { SignInPage } from '../site/sign-in-page.js';
import { UploadsPage } from '../site/uploads-page.js';

/** One page: its path pattern (see `matchPath`), which client it uses, and how to render it. */
export interface RouteDefinition {
  pattern: string;
  area: 'site' | 'admin';
  render(params: Record<string, string>): ReactNode;
}

/** The console's pages; the first match wins. */
export const routes: RouteDefinition[] = [
  { pattern: '/', area: 'site', render: () => <HomePage /> },
  { pattern: '/site/sign-in', area: 'site', render: () => <SignInPage /> },
  { pattern: '/site/register', area: 'site', render: () => <RegisterPage /> },
  { pattern: '/site/recover', area: 'site', render: () => <RecoverPage /> },
  { pattern: '/site/reset-password', area: 'site', render: () => <ResetPasswordPage /> },
  { pattern: '/site/callback', area: 'site', render: () => <CallbackPage /> },
  { pattern: '/site/profile', area: 'site', render: () => <ProfilePage /> },
  { pattern: '/site/browse', area: 'site', render: () => <BrowsePage /> },
  { pattern: '/site/uploads', area: 'site', render: () => <UploadsPage /> },
  { pattern: '/admin/collections', area: 'admin', render: () => <CollectionsPage /> },
  {
    pattern: '/admin/collections/:collectionId',
    area: 'admin',
    render: ({ collectionId }) => <CollectionPage collectionId={collectionId ?? ''} />,
  },
  {
    pattern: '/admin/items/:collectionId?',
    area: 'admin',
    render: ({ collectionId }) => <ItemsPage collectionId={collectionId} />,
  },
  { pattern: '/admin/media', area: 'admin', render: () => <MediaPage /> },
  { pattern: '/admin/members', area: 'admin', render: () => <MembersPage /> },
  { pattern: '/admin/outbox', area: 'admin', render: () => <OutboxPage /> },
  { pattern: '/admin/requests', area: 'admin', render: () => <RequestsPage /> },
  { pattern: '/admin/webhooks', area: 'admin', render: () => <WebhooksPage /> },
  { pattern: '/admin/config', area: 'admin', render: () => <ConfigPage /> },
  { pattern: '/admin/bench', area: 'admin', render: () => <BenchPage /> },
];
