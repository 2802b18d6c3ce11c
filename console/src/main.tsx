/**
 * Start-up: read the demo site's coordinates from the emulator, create the two sitekit clients
 * once, and render the console. If the emulator cannot be reached, say so in words.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { SiteKitProvider } from 'sitekit-sdk/react';
import { ConsoleContext } from './app/console-context.js';
import { RouterProvider } from './app/router.js';
import { SessionRestorer } from './app/session-restorer.js';
import { Shell } from './app/shell.js';
import { createConsoleClients } from './emulator/clients.js';
import { loadEmulatorInfo, type EmulatorInfo } from './emulator/info.js';
import { ErrorNotice } from './ui/error-notice.js';
import { Loading } from './ui/states.js';
import './styles.css';

/**
 * sitekit already retries what is safe to retry, with backoff; a second retry layer would only
 * delay the error a person is waiting to read.
 */
function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 5_000 } },
  });
}

async function start(): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  const root = createRoot(container);
  root.render(
    <div className="content">
      <Loading label="Connecting to the emulator…" />
    </div>,
  );
  let info: EmulatorInfo;
  try {
    info = await loadEmulatorInfo();
  } catch (error) {
    root.render(
      <div className="content">
        <h1>The console cannot reach the emulator</h1>
        <ErrorNotice error={error} />
        <p>
          Start it with <code>npm start</code> in the repository (or <code>npx sitekit-sdk emulator</code> in your app),
          then reload this page.
        </p>
      </div>,
    );
    return;
  }
  const clients = createConsoleClients(info);
  const siteQueries = createQueryClient();
  const adminQueries = createQueryClient();
  root.render(
    <StrictMode>
      <ConsoleContext.Provider value={{ info, clients }}>
        <QueryClientProvider client={siteQueries}>
          <SiteKitProvider client={clients.site}>
            <RouterProvider>
              <SessionRestorer>
                <Shell adminQueries={adminQueries} />
              </SessionRestorer>
            </RouterProvider>
          </SiteKitProvider>
        </QueryClientProvider>
      </ConsoleContext.Provider>
    </StrictMode>,
  );
}

void start();
