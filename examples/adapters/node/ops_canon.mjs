// `jcs-canonicalize`, `hash-bytes`, `hash-aef-text` (docs/PROFILE.md CANON-001, CANON-003).

import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { parse } from './strict_json.mjs';

export function sha256(bytes) {
  return 'sha256:' + createHash('sha256').update(bytes).digest('hex');
}

/** RFC 8785 text of a JSON text given as `json` (a string) or `json_base64` (bytes). */
export function jcs(input) {
  const bytes = 'json_base64' in input ? Buffer.from(input.json_base64, 'base64') : new TextEncoder().encode(input.json);
  // canonicalize sorts member names with Array.prototype.sort (UTF-16 code units, as RFC 8785
  // says) and writes numbers and strings with JSON.stringify (ECMAScript rules, as RFC 8785 says).
  return canonicalize(parse(bytes));
}

/** AEF §5 steps 1-3; throws on bytes that are not UTF-8. */
export function aefText(bytes) {
  let text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  text = text.replace(/\r\n/g, '\n').replace(/\r/g, '\n');
  if (text.endsWith('\n')) text = text.slice(0, -1);
  return new TextEncoder().encode(text);
}
