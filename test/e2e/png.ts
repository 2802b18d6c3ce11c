/** The PNG generator of the emulator's demo media, for the browser tests' uploads (one generator, not a copy). */
export { gradientPng } from '../../emulator/services/media/png.js';
