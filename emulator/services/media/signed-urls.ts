/**
 * Signed, expiring download URLs: `/_media/download/<fileId>?expires=<epoch seconds>&...&signature=<HMAC>`.
 * The HMAC key is derived from the site's API key, so URLs survive a restart and nobody without
 * the key can forge or extend one.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { EmulatorContext } from '../../service.js';

/** What a download URL grants. */
export interface DownloadGrant {
  fileId: string;
  /** Epoch seconds after which the URL no longer works. */
  expires: number;
  disposition: 'ATTACHMENT' | 'INLINE';
  /** The file name the browser saves it as. */
  fileName?: string;
  /** Where an expired URL sends the browser instead of answering 403. */
  expiredRedirect?: string;
}

const signingKey = (context: EmulatorContext): Buffer =>
  createHash('sha256').update(`sitekit-emulator media downloads\0${context.site.apiKey}`).digest();

/** The parameters a grant is signed over, in a fixed order. */
function signedParameters(grant: DownloadGrant): URLSearchParams {
  const parameters = new URLSearchParams({ expires: String(grant.expires), disposition: grant.disposition });
  if (grant.fileName) parameters.set('name', grant.fileName);
  if (grant.expiredRedirect) parameters.set('expiredRedirect', grant.expiredRedirect);
  return parameters;
}

const signatureOf = (context: EmulatorContext, fileId: string, parameters: URLSearchParams): string =>
  createHmac('sha256', signingKey(context)).update(`${fileId}?${parameters.toString()}`).digest('base64url');

/** A signed URL for `grant`. */
export function signDownloadUrl(context: EmulatorContext, grant: DownloadGrant): string {
  const parameters = signedParameters(grant);
  parameters.set('signature', signatureOf(context, grant.fileId, parameters));
  return `${context.url()}/_media/download/${encodeURIComponent(grant.fileId)}?${parameters.toString()}`;
}

/** The grant of a download request when its signature is right (expired or not), else undefined. */
export function readDownloadUrl(
  context: EmulatorContext,
  fileId: string,
  query: Record<string, unknown>,
): DownloadGrant | undefined {
  const text = (name: string) => (typeof query[name] == 'string' ? (query[name] as string) : undefined);
  const expires = Number(text('expires'));
  const disposition = text('disposition');
  if (!Number.isInteger(expires) || (disposition != 'ATTACHMENT' && disposition != 'INLINE')) return undefined;
  const grant: DownloadGrant = {
    fileId,
    expires,
    disposition,
    ...(text('name') ? { fileName: text('name') } : {}),
    ...(text('expiredRedirect') ? { expiredRedirect: text('expiredRedirect') } : {}),
  };
  const expected = Buffer.from(signatureOf(context, fileId, signedParameters(grant)));
  const given = Buffer.from(text('signature') ?? '');
  return given.length == expected.length && timingSafeEqual(given, expected) ? grant : undefined;
}
