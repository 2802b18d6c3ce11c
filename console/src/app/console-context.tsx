/** What every page may need besides its own sitekit client: the demo site's info and both clients. */
import { createContext, useContext } from 'react';
import type { ConsoleClients } from '../emulator/clients.js';
import type { EmulatorInfo } from '../emulator/info.js';

/** The console's start-up values. */
export interface ConsoleValues {
  info: EmulatorInfo;
  clients: ConsoleClients;
}

/** Provides {@link ConsoleValues}; set once in `main.tsx`. */
export const ConsoleContext = createContext<ConsoleValues | null>(null);

/** The demo site's info and the console's two clients. */
export function useConsole(): ConsoleValues {
  const values = useContext(ConsoleContext);
  if (!values) throw new Error('useConsole must be used inside <ConsoleContext.Provider>');
  return values;
}
