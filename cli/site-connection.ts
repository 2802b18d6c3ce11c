/**
 * The site a command reads (`types`, `pull`): a live site given by `--url`, `--api-key` and
 * `--site-id`, or the local emulator (its `/_emulator/info` gives the API key and site ID).
 * Reads go through the SDK with an API key; nothing here needs the emulator's server packages.
 */
import { ApiKeyStrategy, createClient, type ApiKeyAuth, type Client, type ClientOptions } from '../src/index.js';
import { UsageError } from './command-io.js';

/** Where the local emulator listens unless told otherwise (`sitekit-sdk emulator`'s default). */
export const DEFAULT_EMULATOR_URL = 'http://127.0.0.1:4700';

/**
 * The option that names a running emulator, the same in every command that talks to one
 * (`--emulator <url>`; `--url` always names a live site).
 */
export const EMULATOR_OPTION = { emulator: { type: 'string' } } as const;

/** Its help text. */
export const EMULATOR_USAGE = `  --emulator <url>    the running emulator (default $SITEKIT_EMULATOR_URL or ${DEFAULT_EMULATOR_URL})`;

/** The emulator `--emulator` names, else `SITEKIT_EMULATOR_URL`, else the default; no trailing slash. */
export function emulatorUrl(option: string | undefined, env: Record<string, string | undefined>): string {
  const url = option ?? env.SITEKIT_EMULATOR_URL ?? DEFAULT_EMULATOR_URL;
  if (!URL.canParse(url)) throw new UsageError(`--emulator must be a URL (got ${url})`);
  return url.replace(/\/+$/, '');
}

/** The options every command that reads a site takes, for `parseArgs`. */
export const SITE_OPTIONS = {
  url: { type: 'string' },
  'api-key': { type: 'string' },
  'site-id': { type: 'string' },
  ...EMULATOR_OPTION,
} as const;

/** Their help text. */
export const SITE_USAGE = `  --url <url>         a live site's API (e.g. https://www.wixapis.com), with --api-key and --site-id
  --api-key <key>     the site's API key (or the SITEKIT_API_KEY environment variable)
  --site-id <id>      the site's ID (or the SITEKIT_SITE_ID environment variable)
${EMULATOR_USAGE}; read when no --url is given`;

/** The values of {@link SITE_OPTIONS} as parsed. */
export interface SiteArguments {
  url?: string;
  'api-key'?: string;
  'site-id'?: string;
  emulator?: string;
}

/** A site to read, through an elevated SDK client. */
export interface SiteConnection {
  client: Client<ApiKeyAuth>;
  /** What the site is, for messages: its URL. */
  description: string;
  /** The origin of the site's API (`https://www.wixapis.com`, `http://127.0.0.1:4700`). */
  origin: string;
}

/** Connection details the local emulator gives (`GET /_emulator/info`). */
async function emulatorInfo(
  emulator: string,
  fetchFunction: typeof fetch,
): Promise<{ url: string; apiKey: string; siteId: string }> {
  const infoUrl = `${emulator}/_emulator/info`;
  let response: Response;
  try {
    response = await fetchFunction(infoUrl);
  } catch {
    throw new Error(
      `no emulator answers at ${emulator}: start one (npx sitekit-sdk emulator), or read a live site with --url, --api-key and --site-id.`,
    );
  }
  if (!response.ok) throw new Error(`${infoUrl} answered ${response.status}: is this a sitekit emulator?`);
  return (await response.json()) as { url: string; apiKey: string; siteId: string };
}

/**
 * The client's retry policy and total time limit per call: commands that page through a whole
 * site wait longer on rate limits (429 with `Retry-After`) than the defaults allow.
 */
export type SitePolicy = Pick<ClientOptions, 'retry' | 'timeoutMs'>;

/** The site the arguments name, read with the client options of `policy` (the defaults without). */
export async function connectToSite(
  args: SiteArguments,
  env: Record<string, string | undefined>,
  policy: SitePolicy = {},
  fetchFunction: typeof fetch = fetch,
): Promise<SiteConnection> {
  const apiKey = args['api-key'] ?? env.SITEKIT_API_KEY;
  const siteId = args['site-id'] ?? env.SITEKIT_SITE_ID;
  if (args.url !== undefined) {
    if (!apiKey) throw new UsageError('--url needs --api-key (or SITEKIT_API_KEY)');
    if (!URL.canParse(args.url)) throw new UsageError(`--url must be a URL (got ${args.url})`);
    return {
      client: createClient({
        baseUrl: args.url,
        auth: ApiKeyStrategy({ apiKey, siteId }),
        ...policy,
        fetch: fetchFunction,
      }),
      description: args.url,
      origin: new URL(args.url).origin,
    };
  }
  const info = await emulatorInfo(emulatorUrl(args.emulator, env), fetchFunction);
  return {
    client: createClient({
      baseUrl: info.url,
      auth: ApiKeyStrategy({ apiKey: info.apiKey, siteId: info.siteId }),
      ...policy,
      fetch: fetchFunction,
    }),
    description: `the emulator at ${info.url}`,
    origin: new URL(info.url).origin,
  };
}
