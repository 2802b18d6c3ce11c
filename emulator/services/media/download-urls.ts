/**
 * Signed, expiring download URLs (`generateFileDownloadUrl`, `generateFilesDownloadUrl`,
 * `generateVideoStreamingUrl`); ./file-routes.ts serves them.
 */
import { applicationError, invalidField, permissionDenied } from '../../errors.js';
import type { EmulatorContext } from '../../service.js';
import type { OperationCall } from '../operation-input.js';
import { readableFiles, requireReadableFile } from './file-store.js';
import { requireRedirectTarget } from './redirect-target.js';
import { signDownloadUrl } from './signed-urls.js';

/** Default life of a download URL (the platform's default is 600 minutes). */
const DEFAULT_DOWNLOAD_MINUTES = 600;

/** When a URL made now with the default life expires, in epoch seconds. */
const defaultExpiry = (context: EmulatorContext): number =>
  Math.floor(context.clock.now() / 1000) + DEFAULT_DOWNLOAD_MINUTES * 60;

/**
 * `generateFileDownloadUrl`: one file, with its life, disposition, name and where an expired URL
 * goes. Only an elevated caller may say where: on the platform only apps (an API key) make download
 * URLs, and an expired URL sends whoever follows it to that target, so a visitor's would be an
 * open redirect from the emulator's origin.
 */
export function downloadUrl(call: OperationCall<'generateFileDownloadUrl'>, context: EmulatorContext) {
  if (call.input.expirationRedirectUrl !== undefined && call.caller.kind != 'elevated')
    throw permissionDenied('expirationRedirectUrl may be set by an elevated client (an API key) only');
  const file = requireReadableFile(context.store, call.caller, call.input.fileId);
  const minutes = call.input.expirationInMinutes ?? DEFAULT_DOWNLOAD_MINUTES;
  if (!Number.isInteger(minutes) || minutes < 1)
    throw invalidField('expirationInMinutes', 'must be a whole number of at least 1', 'MIN');
  const url = signDownloadUrl(context, {
    fileId: file.id,
    expires: Math.floor(context.clock.now() / 1000) + minutes * 60,
    disposition: call.input.contentDisposition == 'INLINE' ? 'INLINE' : 'ATTACHMENT',
    ...(call.input.downloadFileName ? { fileName: call.input.downloadFileName } : {}),
    ...(call.input.expirationRedirectUrl
      ? { expiredRedirect: requireRedirectTarget(call.input.expirationRedirectUrl, 'expirationRedirectUrl') }
      : {}),
  });
  return { downloadUrls: [{ url, assetKey: 'src' }] };
}

/** `generateFilesDownloadUrl`: several files come as one ZIP archive; the ids travel (signed) in the URL. */
export function filesDownloadUrl(call: OperationCall<'generateFilesDownloadUrl'>, context: EmulatorContext) {
  const files = readableFiles(context, call.caller, call.input.fileIds);
  const fileId = files.map((file) => file.id).join(',');
  return {
    downloadUrl: signDownloadUrl(context, {
      fileId,
      expires: defaultExpiry(context),
      disposition: 'ATTACHMENT',
      ...(files.length > 1 ? { fileName: 'files.zip' } : {}),
    }),
  };
}

/** `generateVideoStreamingUrl`: no transcoding offline, so HLS and DASH requests get the original file, streamed inline. */
export function videoStreamingUrl(call: OperationCall<'generateVideoStreamingUrl'>, context: EmulatorContext) {
  const file = requireReadableFile(context.store, call.caller, call.input.fileId);
  if (file.mediaType != 'VIDEO') throw applicationError(400, 'NOT_A_VIDEO', `File ${file.id} is not a video`);
  const url = signDownloadUrl(context, { fileId: file.id, expires: defaultExpiry(context), disposition: 'INLINE' });
  return { downloadUrl: { url, assetKey: 'src' } };
}
