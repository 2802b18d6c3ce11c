/** The slices of OpenAPI 3.1 that the generator reads, with sitekit's x- extensions. */

/** A JSON Schema object as written in schema/*.yaml. */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: boolean | Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  'x-sitekit-wire'?: string;
  'x-sitekit-entity'?: boolean;
  [key: string]: unknown;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  description?: string;
  schema?: Schema;
  'x-sitekit-from'?: string;
}

export interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> } | { $ref: string }>;
  'x-sitekit-method'?: string;
  'x-sitekit-entity'?: string;
  'x-sitekit-args'?: string[];
  'x-sitekit-unwrap'?: string;
  'x-sitekit-elevated'?: boolean;
  'x-sitekit-read-only'?: boolean;
  'x-sitekit-fallback'?: string;
  'x-sitekit-null-if-missing'?: string;
  /** Our SDK's hand-written methods (`items.query`) that call this operation: names a fault rule may use. */
  'x-sitekit-sdk-methods'?: string[];
}

/** The kinds of domain event: an entity's life cycle, or an action on it. */
export const EVENT_KINDS = ['created', 'updated', 'deleted', 'action'] as const;

/** A domain event (an OpenAPI 3.1 webhook): a POST whose body is the event's entity or action body. */
export interface EventOperation extends Operation {
  'x-sitekit-event'?: (typeof EVENT_KINDS)[number];
}

export interface Doc {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, Operation>>;
  /** Domain events by event type. */
  webhooks?: Record<string, { post?: EventOperation }>;
  components: {
    schemas: Record<string, Schema>;
    responses?: Record<string, unknown>;
    parameters?: Record<string, unknown>;
  };
}

export interface OperationEntry {
  path: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  op: Operation;
}

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];
export const NAMESPACES = ['collections', 'items', 'media', 'members', 'auth'];

/** `x-sitekit-wire` marker → leaf code of the transform trees (`TransformCode` in src/operation.ts). */
export const WIRE_CODES: Record<string, string> = {
  float: 'float',
  'field-mask': 'fieldMask',
  image: 'image',
  video: 'video',
  audio: 'audio',
  document: 'document',
  item: 'item',
  'item-data': 'itemData',
  'entity-filter': 'entityFilter',
};
