/**
 * The control API's types, read from its schema (`schema/control/emulator.yaml` → generated/control/):
 * what each operation takes and answers. The handlers (`control-routes.ts`), the test bench and
 * the typed client (`client.ts`) are all written against these, so none of them can drift from
 * the document the emulator validates with and serves. Browser-safe: no Node built-ins.
 */
import type { ControlOperationId } from '../../generated/control/operations.js';
import type { components, operations } from '../../generated/control/wire.js';

export type { ControlOperationId };

/**
 * The header that marks a deliberate control call: a write without a JSON body needs it
 * (`http/request-guards.ts`), and a web page of another site cannot send it without the browser
 * asking the emulator first. The control client sends it on every call.
 */
export const CONTROL_HEADER = 'x-sitekit-emulator';

/** The header a control call names its site with (`POST /_emulator/sites` made it); without it, the default site. */
export const SITE_HEADER = 'x-sitekit-site';

/** A component schema of the control API, by name. */
export type ControlSchema<Name extends keyof components['schemas']> = components['schemas'][Name];

type ControlOperation<Id extends ControlOperationId> = operations[Id];

/** The JSON body an operation takes (`undefined` when it takes none; optional when the schema says so). */
export type ControlBody<Id extends ControlOperationId> =
  NonNullable<ControlOperation<Id>['requestBody']> extends { content: { 'application/json': infer Body } }
    ? undefined extends ControlOperation<Id>['requestBody']
      ? Body | undefined
      : Body
    : undefined;

/** The query parameters an operation takes (an empty object when it takes none). */
export type ControlQuery<Id extends ControlOperationId> = [
  NonNullable<ControlOperation<Id>['parameters']['query']>,
] extends [never]
  ? Record<string, never>
  : NonNullable<ControlOperation<Id>['parameters']['query']>;

/** The path parameters of an operation (an empty object when it has none). */
export type ControlParams<Id extends ControlOperationId> = [
  NonNullable<ControlOperation<Id>['parameters']['path']>,
] extends [never]
  ? Record<string, never>
  : NonNullable<ControlOperation<Id>['parameters']['path']>;

/** The success answer an operation declares: 200, or 201 for one that creates something. */
type SuccessResponse<Id extends ControlOperationId> = ControlOperation<Id>['responses'] extends { 201: infer Created }
  ? Created
  : ControlOperation<Id>['responses'] extends { 200: infer Ok }
    ? Ok
    : never;

/** What an operation answers (the JSON body of its success). */
export type ControlResult<Id extends ControlOperationId> =
  SuccessResponse<Id> extends { content: { 'application/json': infer Result } } ? Result : never;

/** The request of an operation as one object: its path parameters, query and body, each typed. */
export interface ControlRequest<Id extends ControlOperationId> {
  params: ControlParams<Id>;
  query: ControlQuery<Id>;
  body: ControlBody<Id>;
}

export type ClockState = ControlSchema<'ClockState'>;
export type ClockMove = ControlSchema<'ClockMove'>;
export type FaultInput = ControlSchema<'FaultInput'>;
export type FaultRule = ControlSchema<'FaultRule'>;
export type FaultOperation = ControlSchema<'FaultOperation'>;
export type LoggedRequest = ControlSchema<'LoggedRequest'>;
export type LoggedCaller = ControlSchema<'LoggedCaller'>;
export type ExplainedDecision = ControlSchema<'ExplainedDecision'>;
export type OutboxEmail = ControlSchema<'OutboxEmail'>;
export type WebhookDelivery = ControlSchema<'WebhookDelivery'>;
export type DeliveryOutcome = ControlSchema<'DeliveryOutcome'>;
export type EventPayload = ControlSchema<'EventPayload'>;
export type TriggerInput = ControlSchema<'TriggerInput'>;
export type TriggeredEvent = ControlSchema<'TriggeredEvent'>;
export type SiteInfo = ControlSchema<'SiteInfo'>;
export type Snapshot = ControlSchema<'Snapshot'>;
export type SettingValue = ControlSchema<'SettingValue'>;
export type SiteExport = ControlSchema<'SiteExport'>;
export type ItemReference = ControlSchema<'ItemReference'>;
/** The sections of a version 2 export: what the stores read and write. */
export type SiteEntities = Omit<SiteExport, 'format' | 'version' | 'exportedAt'>;
export type ImportInput = ControlSchema<'ImportInput'>;
export type ImportResult = ControlSchema<'ImportResult'>;
/** Which requests the request log lists. */
export type RequestFilter = ControlQuery<'listRequests'>;
