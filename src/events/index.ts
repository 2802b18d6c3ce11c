/**
 * Domain events (webhooks): handler registration per namespace and `client.webhooks`.
 * Placeholder until the domain-events work lands: registration works, processing rejects.
 */
import { RequestError } from '../errors/index.js';

/** Options of the webhooks part of createClient. */
export interface WebhookOptions {
  /** The app's public key (SPKI PEM) that signs the events. */
  publicKey: string;
}

/** `client.webhooks`. */
export interface Webhooks {
  /** Verifies and dispatches one event body (the JWT the provider POSTed). */
  process(body: string, options?: { expectedEvents?: string[] }): Promise<unknown>;
  /** Reads the body of a Request and processes it. */
  processRequest(request: Request): Promise<unknown>;
}

/** The registry shared by the namespaces' `on...` methods and `client.webhooks`. */
export interface EventRegistry {
  readonly webhooks: Webhooks;
  /** The `on...` registration methods of one namespace. */
  handlers(namespace: 'collections' | 'items' | 'media' | 'members'): Record<string, never>;
}

/** Creates the registry of one client. */
export function createEventRegistry(_options?: WebhookOptions): EventRegistry {
  const unavailable = async (): Promise<never> => {
    throw new RequestError('webhooks: not available yet', {});
  };
  return { webhooks: { process: unavailable, processRequest: unavailable }, handlers: () => ({}) };
}
