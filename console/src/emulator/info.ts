/** The demo site's coordinates, read once at start-up from the emulator's control API. */

/** What `GET /_emulator/info` answers. */
export interface EmulatorInfo {
  /** The emulator's own URL (the console may be served from another origin in development). */
  url: string;
  /** The demo site's API key: it makes the admin client elevated. */
  apiKey: string;
  siteId: string;
  /** The demo OAuth client, whose allowed redirect URIs include localhost origins. */
  clientId: string;
  /** The key that verifies the emulator's webhooks. */
  publicKey?: string;
}

/** Thrown when the console cannot reach the emulator at start-up. */
export class EmulatorUnavailableError extends Error {
  override readonly name = 'EmulatorUnavailableError';
}

/**
 * Reads `/_emulator/info` from the origin that served the console. This runs before any sitekit
 * client exists (the clients need these values), so it is a plain fetch.
 */
export async function loadEmulatorInfo(signal?: AbortSignal): Promise<EmulatorInfo> {
  let response: Response;
  try {
    response = await fetch('/_emulator/info', { signal, headers: { accept: 'application/json' } });
  } catch (error) {
    // What fetch says ("Failed to fetch") tells a person nothing: say where nothing answered.
    throw new EmulatorUnavailableError(`The emulator is not reachable at ${window.location.origin}.`, {
      cause: error,
    });
  }
  if (!response.ok)
    throw new EmulatorUnavailableError(
      `The emulator answered ${response.status} ${response.statusText} to /_emulator/info.`,
    );
  const info = (await response.json()) as Partial<EmulatorInfo>;
  for (const key of ['apiKey', 'siteId', 'clientId'] as const) {
    if (typeof info[key] !== 'string' || info[key] === '')
      throw new EmulatorUnavailableError(`/_emulator/info has no ${key}.`);
  }
  return info as EmulatorInfo;
}
