/**
 * The media service's upload URL operations (`generateFileUploadUrl`, `generateFileResumableUploadUrl`):
 * the request checked, a ticket made (./uploads.ts receives the bytes), its URL on the caller's origin.
 */
import { sitePath } from '../../sites/site-path.js';
import { applicationError, invalidField } from '../../errors.js';
import type { EmulatorContext, ServiceCall } from '../../service.js';
import type { OperationCall, OperationInput } from '../operation-input.js';
import type { FileRequest } from './descriptors.js';
import { createTicket, uploadLimit } from './uploads.js';

/**
 * The base of upload URLs: the origin the caller reached the emulator at (its Host header), so
 * they work through a port forward or proxy too, then the site's path; the site's own URL when
 * there is no Host.
 */
const originOf = (call: ServiceCall<unknown>, context: EmulatorContext): string =>
  call.request.host ? `${call.request.protocol}://${call.request.host}${sitePath(context)}` : context.url();

/** The upload request's fields, checked (the declared size against the limit). */
function uploadRequest(context: EmulatorContext, input: OperationInput<'generateFileUploadUrl'>): FileRequest {
  if (typeof input.mimeType != 'string' || !input.mimeType)
    throw invalidField('mimeType', 'must not be empty', 'REQUIRED_FIELD');
  const declared = input.sizeInBytes === undefined ? undefined : Number(input.sizeInBytes);
  if (declared !== undefined && (!Number.isInteger(declared) || declared < 0))
    throw invalidField('sizeInBytes', 'must be a whole number of bytes', 'FORMAT');
  if (declared !== undefined && declared > uploadLimit(context)) {
    throw applicationError(
      413,
      'PAYLOAD_TOO_LARGE',
      `The file is larger than the upload limit of ${uploadLimit(context)} bytes`,
      { limit: uploadLimit(context) },
    );
  }
  return {
    mimeType: input.mimeType,
    ...(input.fileName ? { fileName: input.fileName } : {}),
    ...(input.parentFolderId ? { parentFolderId: input.parentFolderId } : {}),
    ...(input.private !== undefined ? { private: input.private === true } : {}),
    ...(Array.isArray(input.labels) ? { labels: input.labels } : {}),
    ...(input.filePath ? { filePath: input.filePath } : {}),
    ...(input.externalInfo ? { externalInfo: input.externalInfo } : {}),
  };
}

/** A URL the file is PUT to, once. */
export function uploadUrl(call: OperationCall<'generateFileUploadUrl'>, context: EmulatorContext) {
  const ticket = createTicket(context, call.caller, 'PUT', uploadRequest(context, call.input));
  return { uploadUrl: `${originOf(call, context)}/_uploads/files/${ticket}` };
}

/** A TUS endpoint and the token that names the upload there. */
export function resumableUploadUrl(call: OperationCall<'generateFileResumableUploadUrl'>, context: EmulatorContext) {
  if (call.input.uploadProtocol !== undefined && call.input.uploadProtocol != 'TUS')
    throw invalidField('uploadProtocol', 'must be TUS', 'INVALID_ENUM_VALUE');
  const ticket = createTicket(context, call.caller, 'TUS', uploadRequest(context, call.input));
  return { uploadProtocol: 'TUS', uploadUrl: `${originOf(call, context)}/_uploads/tus`, uploadToken: ticket };
}
