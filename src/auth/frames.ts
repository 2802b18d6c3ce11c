/** The default {@link FrameHost}: a hidden iframe in `document.body` and `window` message events. */
import type { FrameHost } from './types.js';

/** Hidden iframe and `message` listener of the current window. */
export const browserFrameHost: FrameHost = {
  // Hidden (`style` forwards to its cssText) before it is attached, which starts the load.
  createFrame: (src) =>
    document.body.appendChild(Object.assign(document.createElement('iframe'), { style: 'display:none', src })),
  addMessageListener: (listener) => (
    addEventListener('message', listener), () => removeEventListener('message', listener)
  ),
};
