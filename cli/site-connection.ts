/**
 * The site a command reads (`types`, `pull`): a live site given by `--url`, `--api-key` and
 * `--site-id`, or the local emulator (its `/_emulator/info` gives the API key and site ID).
 * Reads go through the SDK with an API key; nothing here needs the emulator's server packages.
 */
import {
  ApiKeyStrategy,
  createClient,
  isNetworkError,
  isSiteKitError,
  type ApiKeyAuth,
  type Client,
  type ClientOptions,
} from '../src/index.js';
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

/**
 * The line to print when a control call to the emulator at `emulator` failed: nothing answers
 * there, or the emulator refused `what` (in its own words); `undefined` for an error that is not
 * the SDK's (a bug, for the caller to rethrow).
 */
export function emulatorCallFailure(error: unknown, emulator: string, what: string): string | undefined {
  if (isNetworkError(error))
    return `No emulator answers at ${emulator}: start one (npx sitekit-sdk emulator), or name it with --emulator <url>.\n`;
  if (!isSiteKitError(error)) return undefined;
  const message = (error.details as { message?: unknown } | undefined)?.message;
  return `The emulator refused ${what} (${error.status}): ${typeof message == 'string' && message ? message : error.message}\n`;
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
${EMULATOR_USAGE}
                      (read when no --url is given)`;

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

/** An answer in a few words, for messages: its status, its type and how its body starts. */
async function describeAnswer(response: Response): Promise<string> {
  const type = response.headers.get('content-type')?.split(';')[0]?.trim() || 'no content type';
  const start = (await response.text().catch(() => '')).replace(/\s+/g, ' ').trim().slice(0, 40);
  return `${response.status} with ${type}${start ? ` ("${start}${start.length == 40 ? '…' : ''}")` : ''}`;
}

/** Whether an answer is JSON, as the platform's and the emulator's are, whatever their status. */
const isJson = (response: Response): boolean =>
  /^application\/([\w.+-]+\+)?json\b/i.test(response.headers.get('content-type') ?? '');

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
  const info =
    response.ok && isJson(response) ? ((await response.json().catch(() => undefined)) as unknown) : undefined;
  const { url, apiKey, siteId } = (info ?? {}) as Record<string, unknown>;
  if (typeof url != 'string' || typeof apiKey != 'string' || typeof siteId != 'string')
    throw new Error(
      `${emulator} is not a sitekit emulator: ${infoUrl} answered ${info === undefined ? await describeAnswer(response) : 'JSON without url, apiKey and siteId'}, where an emulator gives its connection details. Is another server on that port? Name the emulator with --emulator <url>.`,
    );
  return { url, apiKey, siteId };
}

/**
 * Checks that `url` answers as the platform's API does, with JSON (an error is JSON too), before a
 * command reads through it: a web page, a dev server or a proxy answering HTML would otherwise
 * surface as a JSON parse error from deep inside the first read.
 */
async function checkPlatformAnswers(url: string, headers: Record<string, string>, fetchFunction: typeof fetch) {
  const probe = new URL('wix-data/v2/collections?paging.limit=1', url.endsWith('/') ? url : `${url}/`).href;
  let response: Response;
  try {
    response = await fetchFunction(probe, { headers });
  } catch (error) {
    throw new Error(`nothing answers at ${url} (${error instanceof Error ? error.message : String(error)}).`);
  }
  if (!isJson(response))
    throw new Error(
      `${url} is not the platform's API or a sitekit emulator: GET ${probe} answered ${await describeAnswer(response)}, where the API answers JSON. --url names the API (e.g. https://www.wixapis.com), not a site's pages.`,
    );
  await response.body?.cancel();
}

/**
 * A fetch that says when the site rate-limits a read: the SDK then waits the `Retry-After` it was
 * given (up to the policy's limit) and goes on, which would otherwise look like a hang.
 */
function announcingRateLimits(fetchFunction: typeof fetch, say: (line: string) => void): typeof fetch {
  return async (input, init) => {
    const response = await fetchFunction(input, init);
    if (response.status == 429) {
      const seconds = Number(response.headers.get('retry-after'));
      say(
        Number.isFinite(seconds) && seconds >= 0
          ? `rate-limited, waiting ${Math.ceil(seconds)} s`
          : 'rate-limited, waiting before the next try',
      );
    }
    return response;
  };
}

/**
 * The client's retry policy and total time limit per call: commands that page through a whole
 * site wait longer on rate limits (429 with `Retry-After`) than the defaults allow.
 */
export type SitePolicy = Pick<ClientOptions, 'retry' | 'timeoutMs'>;

/**
 * The site the arguments name, read with the client options of `policy` (the defaults without);
 * `say` hears of waits on the site's rate limit. A server that is not the platform or an emulator
 * is refused here, saying what answered.
 */
export async function connectToSite(
  args: SiteArguments,
  env: Record<string, string | undefined>,
  policy: SitePolicy = {},
  fetchFunction: typeof fetch = fetch,
  say: (line: string) => void = () => {},
): Promise<SiteConnection> {
  const apiKey = args['api-key'] ?? env.SITEKIT_API_KEY;
  const siteId = args['site-id'] ?? env.SITEKIT_SITE_ID;
  if (args.url !== undefined) {
    if (!apiKey) throw new UsageError('--url needs --api-key (or SITEKIT_API_KEY)');
    if (!URL.canParse(args.url)) throw new UsageError(`--url must be a URL (got ${args.url})`);
    const auth = ApiKeyStrategy({ apiKey, siteId });
    await checkPlatformAnswers(args.url, (await auth.getAuthHeaders()).headers, fetchFunction);
    return {
      client: createClient({
        baseUrl: args.url,
        auth,
        ...policy,
        fetch: announcingRateLimits(fetchFunction, say),
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
      fetch: announcingRateLimits(fetchFunction, say),
    }),
    description: `the emulator at ${info.url}`,
    origin: new URL(info.url).origin,
  };
}
