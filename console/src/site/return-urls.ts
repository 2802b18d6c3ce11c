/**
 * The console's pages the emulator sends a browser back to. The demo OAuth client allows any
 * localhost origin, so these work on the emulator's port and on Vite's dev server alike.
 */
import type { SilentOptions } from 'sitekit-sdk';

/** Where the hosted sign-in page returns with the code (in the fragment). */
export function callbackUrl(): string {
  return `${window.location.origin}/site/callback`;
}

/** Where the recovery email's link leads: the page that sets the new password. */
export function resetPasswordUrl(): string {
  return `${window.location.origin}/site/reset-password`;
}

/**
 * Options of the flows that turn a session into member tokens in a hidden frame (direct login,
 * registration, verification, silent sign-in): the emulator asks for the redirect URI there too.
 */
export function silentOptions(): SilentOptions {
  return { redirectUri: callbackUrl() };
}
