/**
 * What must differ between two sites' answers, made equal before they are compared or recorded:
 * the scratch collection's ID (each run makes its own), the dates and owner of what the run wrote
 * (each site stamps its own), paging cursors (opaque, each site's own), each site's own origin in
 * URLs, and signed URLs' signatures. Members' personal data is anonymized as `sitekit-sdk pull`
 * anonymizes it (the same numbering, so a site pulled into the emulator compares equal).
 */
import { operations } from '../../generated/operations.js';
import type { Member } from '../../src/index.js';
import { toPublic, toWire } from '../../src/wire/index.js';
import { anonymizeMember } from '../site-copy.js';
import type { Answer } from './site-calls.js';
import type { Step } from './scenario.js';

/** What differs between the two sites of a run, besides their data. */
export interface SiteFacts {
  /** The scratch collection's ID on this site. */
  scratchId: string;
  /** The origin of the site's API (`https://www.wixapis.com`): its URLs are compared without it. */
  origin: string;
}

/** What normalized values read as. */
export const NORMALIZED = {
  scratch: '<scratch>',
  date: '<date>',
  owner: '<owner>',
  cursor: '<cursor>',
  origin: '<origin>',
  signature: '<signed>',
} as const;

/** An ISO-8601 date-time, as the wire carries dates. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Query parameters that make a URL a signed one (each site signs with its own key, and for a time). */
const SIGNATURE_PARAMETERS = /^(token|sig|signature|expires|expiry|policy|key-pair-id|x-amz-.*|x-goog-.*)$/i;

/** A URL without the site's own origin and without its signature. */
function normalizedUrl(value: string, origin: string): string {
  let text = value.startsWith(`${origin}/`) ? NORMALIZED.origin + value.slice(origin.length) : value;
  const query = text.indexOf('?');
  if (query >= 0 && /^(https?:\/\/|<origin>)/.test(text)) {
    const names = [...new URLSearchParams(text.slice(query + 1)).keys()];
    if (names.some((name) => SIGNATURE_PARAMETERS.test(name))) text = `${text.slice(0, query)}?${NORMALIZED.signature}`;
  }
  return text;
}

/** The members of a members answer, anonymized in their order (`member-1`, `member-2`, ...), as `pull` numbers them. */
function anonymizedMembers(body: unknown): unknown {
  const tree = operations.queryMembers.response;
  const answer = toPublic(body, tree) as { members?: Member[] };
  if (!Array.isArray(answer.members)) return body;
  return toWire(
    { ...answer, members: answer.members.map((member, index) => anonymizeMember(member, index + 1)) },
    tree,
  );
}

/** `value` with what must differ replaced, by the rules of the module comment. */
function normalizedValue(value: unknown, key: string, parentKey: string, step: Step, site: SiteFacts): unknown {
  if (typeof value == 'string') {
    if (parentKey == 'cursors') return NORMALIZED.cursor;
    if (step.scratch && key == '_owner') return NORMALIZED.owner;
    if (step.scratch && DATE_TIME.test(value)) return NORMALIZED.date;
    const text = value.replaceAll(site.scratchId, NORMALIZED.scratch);
    return normalizedUrl(text, site.origin);
  }
  if (Array.isArray(value)) return value.map((entry) => normalizedValue(entry, key, parentKey, step, site));
  if (value && typeof value == 'object')
    return Object.fromEntries(
      Object.entries(value).map(([name, entry]) => [name, normalizedValue(entry, name, key, step, site)]),
    );
  return value;
}

/** An answer as it is compared and recorded. */
export function normalizedAnswer(step: Step, answer: Answer, site: SiteFacts): Answer {
  const body = step.personal && answer.status < 300 ? anonymizedMembers(answer.body) : answer.body;
  return { status: answer.status, body: normalizedValue(body, '', '', step, site) };
}
