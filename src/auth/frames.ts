/** The default {@link FrameHost}: a hidden iframe in `document.body` and `window` message events. */
import type { FrameHost } from './types.js';

/** Whether a DOM is at hand (browsers, jsdom); not in Node, workers or React Native. */
export const hasDom = (): boolean => typeof document === 'object' && !!document?.body;

/** Hidden iframe and `message` listener of the current window. */
export const browserFrameHost: FrameHost = {
  createFrame(url) {
    const frame = document.body.appendChild(document.createElement('iframe'));
    frame.style.display = 'none';
    frame.src = url;
    return frame; // an element has remove()
  },
  addMessageListener(listener) {
    addEventListener('message', listener);
    return () => removeEventListener('message', listener);
  },
};
