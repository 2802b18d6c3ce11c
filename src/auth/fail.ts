import { AuthError, type SiteKitErrorInit } from '../errors/index.js';
import { toUpperSnake } from '../errors/status-text.js';

/** An AuthError whose code is its message in upper snake case ('Invalid _state' → `INVALID_STATE`). */
export const fail = (message: string, init?: Omit<SiteKitErrorInit, 'code'>): AuthError =>
  new AuthError(message, { code: toUpperSnake(message), ...init });
