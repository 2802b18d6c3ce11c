/**
 * The service modules, in registration order. A new service appends its module here; its
 * migrations run in this order too (see README.md).
 */
import type { ServiceModule } from '../service.js';
import { collectionsService } from './data/collections.js';
import { itemsService } from './data/items/service.js';
import { oauthService } from './accounts/oauth.js';
import { outboxService } from './outbox.js';
import { membersService } from './accounts/members/service.js';
import { identityService } from './accounts/identity/service.js';
import { signInService } from './accounts/sign-in/service.js';
import { mediaService } from './media/service.js';
import { webhooksService } from './webhooks/service.js';

/** Every service module of the emulator. */
export const serviceModules: readonly ServiceModule[] = [
  oauthService,
  collectionsService,
  itemsService,
  outboxService,
  membersService,
  identityService,
  signInService,
  mediaService,
  webhooksService,
];
