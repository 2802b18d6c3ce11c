/**
 * The hosted pages' HTML: small, server-rendered forms that work without JavaScript (the
 * `web_message` answer is the only script). Every value put into a page is escaped.
 */
import { ICON_LINK } from '../../../http/icon.js';

/** Text made safe for HTML content and attribute values. */
export const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!,
  );

const STYLE = `body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;border-radius:12px;box-shadow:0 2px 12px #0002;padding:2rem;width:min(24rem,90vw)}
h1{font-size:1.4rem;margin:0 0 1rem}label{display:block;margin:.8rem 0 .3rem;font-weight:600}
input{box-sizing:border-box;width:100%;padding:.55rem;border:1px solid #bbb;border-radius:6px;font-size:1rem}
button{margin-top:1.2rem;width:100%;padding:.65rem;border:0;border-radius:6px;background:#2557d6;color:#fff;font-size:1rem;cursor:pointer}
.alert{background:#fde8e8;color:#8a1c1c;border-radius:6px;padding:.6rem;margin-bottom:.8rem}.note{color:#555;font-size:.9rem}
.badge{font-size:.75rem;color:#666;text-transform:uppercase;letter-spacing:.05em}`;

/** A whole page around `body`. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>${ICON_LINK}<style>${STYLE}</style></head>
<body><main><div class="badge">sitekit emulator</div><h1>${escapeHtml(title)}</h1>
${body}
</main></body></html>
`;
}

/** An error message block (or nothing). */
export const alert = (message: string | undefined, code?: string): string =>
  message
    ? `<div class="alert" role="alert">${escapeHtml(message)}${code ? ` <small>(${escapeHtml(code)})</small>` : ''}</div>`
    : '';

/** One labelled input. */
export function field(name: string, label: string, type: string, value = '', extra = ''): string {
  const id = `field-${name}`;
  return `<label for="${id}">${escapeHtml(label)}</label><input id="${id}" name="${name}" type="${type}" value="${escapeHtml(value)}" ${extra}>`;
}

/** A hidden input. */
export const hidden = (name: string, value: string): string =>
  `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

/** A form posting to `action`, with an accessible name. */
export const form = (action: string, name: string, content: string, button: string): string =>
  `<form method="post" action="${escapeHtml(action)}" aria-label="${escapeHtml(name)}">${content}<button type="submit">${escapeHtml(button)}</button></form>`;

/**
 * The `web_message` answer: posts `message` to the page that opened or framed this one, at
 * `targetOrigin` only (the origin of the client's redirect URI), never to `*`.
 */
export function postMessagePage(message: Record<string, string>, targetOrigin: string): string {
  // JSON inside a script: `<` escaped so no value can close the script element.
  const json = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Signing in…</title>${ICON_LINK}</head><body>
<script>(function(){var target=window.opener||window.parent;if(target&&target!==window)target.postMessage(${json(message)},${json(targetOrigin)});})();</script>
</body></html>
`;
}
