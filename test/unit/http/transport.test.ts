/** The transport cases over the `fetch` handler (the default of the browser build, and any caller's `fetch`). */
import { describe } from 'vitest';
import { transportCases } from './transport-cases.js';

describe('transport over fetch', transportCases);
