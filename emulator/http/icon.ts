/**
 * The emulator's icon, inline: every HTML page it serves names it, so a browser has no reason to
 * ask for `/favicon.ico` (a 404 there is a console error in every page's log).
 */

/** A small SVG mark (a rounded square with an "S"), as a data URI. */
const ICON_DATA_URI =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='8' fill='%234f46e5'/%3E%3Cpath d='M10 20c0 2 2 3 6 3s6-1.5 6-4-2-3.5-6-4-6-1.5-6-4 2-3.5 6-3.5 5.5 1 6 3' stroke='white' stroke-width='2.5' fill='none' stroke-linecap='round'/%3E%3C/svg%3E";

/** The `<link>` to put in the `<head>` of every page the emulator serves. */
export const ICON_LINK = `<link rel="icon" href="${ICON_DATA_URI}">`;

/** The path browsers ask for an icon when a page names none. */
export const FAVICON_PATH = '/favicon.ico';
