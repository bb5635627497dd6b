// `aca-header-parse`: the `Citation-Source` field (docs/PROFILE.md ACA-L1-001 to ACA-L1-008).

import { isIPv6 } from 'node:net';

const MAX_VALUE_BYTES = 8192;
const MAX_ENTRIES = 256;
const TCHAR = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]$/;
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const URI_CHARS = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;
const DEFAULT_PORT = { http: 80, https: 443 };
const IPVFUTURE = /^v[0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+$/;

class Syntax extends Error {}

/** scheme, authority, path, query, fragment of an absolute URL (RFC 3986 §3 split). */
function split(url) {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s.exec(url);
  if (!m) return null;
  return { scheme: m[1], authority: m[2], path: m[3], query: m[4], fragment: m[5] };
}

/** host (lowercase) and port (number or null) of an authority; null when malformed. */
function hostPort(authority) {
  let host = authority;
  let port = null;
  const bracket = authority.startsWith('[') ? authority.indexOf(']') : -1;
  const colon = authority.lastIndexOf(':');
  if (colon > bracket) {
    host = authority.slice(0, colon);
    const p = authority.slice(colon + 1);
    if (p !== '') {
      if (!/^[0-9]+$/.test(p) || Number(p) > 65535) return null;
      port = Number(p);
    }
  }
  return { host: host.toLowerCase(), port };
}

/**
 * RFC 3986 3.2.2: an IP literal in brackets (IPv6address or IPvFuture, no zone id), then nothing
 * or `:port`; any other host has no brackets.
 */
function authorityOk(authority) {
  if (!authority.startsWith('[')) return !authority.includes('[') && !authority.includes(']');
  const end = authority.indexOf(']');
  if (end < 0) return false;
  const literal = authority.slice(1, end);
  const after = authority.slice(end + 1);
  if (after !== '' && !/^:[0-9]*$/.test(after)) return false;
  if (IPVFUTURE.test(literal)) return true;
  // A zone id (RFC 6874) is not RFC 3986.
  return !literal.includes('%') && isIPv6(literal);
}

/** The profile's "Web URL" definition. */
export function webUrlOk(url) {
  if (!url || Buffer.byteLength(url) > 2048) return false;
  for (const c of url) {
    const cp = c.codePointAt(0);
    if (cp < 0x21 || cp > 0x7e) return false;
  }
  if (!URI_CHARS.test(url) || url.split('#').length > 2) return false;
  const parts = split(url);
  if (!parts || !['http', 'https'].includes(parts.scheme.toLowerCase()) || parts.authority === undefined) return false;
  if (parts.authority.includes('@') || !authorityOk(parts.authority)) return false;
  const hp = hostPort(parts.authority);
  return hp !== null && hp.host !== '';
}

/** URL equality key: WHATWG-style scheme/host case, default port and dot segments. */
function urlKey(url) {
  const p = split(url);
  const scheme = p.scheme.toLowerCase();
  const { host, port } = hostPort(p.authority);
  const origin = port !== null && port !== DEFAULT_PORT[scheme] ? `${host}:${port}` : host;
  const segments = [];
  for (const seg of (p.path || '/').split('/').slice(1)) {
    const s = seg.toLowerCase();
    if (s === '.' || s === '%2e') continue;
    if (['..', '.%2e', '%2e.', '%2e%2e'].includes(s)) {
      segments.pop();
      continue;
    }
    segments.push(seg);
  }
  const path = '/' + segments.join('/');
  const beforeFragment = url.split('#')[0];
  return JSON.stringify([scheme, origin, path, p.query ?? '', p.fragment ?? '', beforeFragment.includes('?'), url.includes('#')]);
}

function ows(s, i) {
  while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i++;
  return i;
}

function token(s, i) {
  let j = i;
  while (j < s.length && TCHAR.test(s[j])) j++;
  if (j === i) throw new Syntax('token expected');
  return [s.slice(i, j), j];
}

function quoted(s, i) {
  i++;
  let out = '';
  let backslash = false;
  while (i < s.length) {
    const c = s[i];
    const code = c.charCodeAt(0);
    if (c === '"') return [out, backslash, i + 1];
    if (c === '\\') {
      const n = s[i + 1];
      if (n === undefined || !(n === ' ' || n === '\t' || (n.charCodeAt(0) >= 0x21 && n.charCodeAt(0) <= 0x7e))) {
        throw new Syntax('bad quoted-pair');
      }
      backslash = true;
      out += n;
      i += 2;
      continue;
    }
    if (!(c === ' ' || c === '\t' || code === 0x21 || (code >= 0x23 && code <= 0x5b) || (code >= 0x5d && code <= 0x7e))) {
      throw new Syntax('bad character in quoted-string');
    }
    out += c;
    i++;
  }
  throw new Syntax('unterminated quoted-string');
}

function entries(s) {
  const out = [];
  let i = 0;
  for (;;) {
    i = ows(s, i);
    if (i >= s.length) return out;
    if (s[i] === ',') {
      i++;
      continue;
    }
    if (s[i] !== '<') throw new Syntax('< expected');
    const end = s.indexOf('>', i + 1);
    if (end <= i + 1) throw new Syntax('URL expected');
    const url = s.slice(i + 1, end);
    for (const c of url) {
      const cp = c.codePointAt(0);
      if (cp < 0x21 || cp > 0x7e || c === '<' || c === '>') throw new Syntax('bad character in URL');
    }
    i = end + 1;
    const params = [];
    for (;;) {
      let j = ows(s, i);
      if (j < s.length && s[j] === ';') {
        j = ows(s, j + 1);
        let name;
        [name, j] = token(s, j);
        j = ows(s, j);
        if (j >= s.length || s[j] !== '=') throw new Syntax('= expected');
        j = ows(s, j + 1);
        if (j < s.length && s[j] === '"') {
          let value;
          let backslash;
          [value, backslash, j] = quoted(s, j);
          params.push([name.toLowerCase(), value, true, backslash]);
        } else {
          let value;
          [value, j] = token(s, j);
          params.push([name.toLowerCase(), value, false, false]);
        }
        i = j;
      } else {
        break;
      }
    }
    out.push([url, params]);
    i = ows(s, i);
    if (i < s.length) {
      if (s[i] !== ',') throw new Syntax(', expected');
      i++;
    }
  }
}

/** [errors, entries] for the values of every Citation-Source field line. */
export function headerParse(values) {
  const errors = [];
  const err = (code) => {
    if (!errors.includes(code)) errors.push(code);
  };
  for (const v of values) {
    if (/\r\n[ \t]/.test(v) || [...v].some((c) => (c.codePointAt(0) < 0x20 && c !== '\t') || c.codePointAt(0) > 0x7e)) {
      return [['aca-header-syntax'], null];
    }
  }
  const combined = values.join(', ').replace(/^[ \t]+|[ \t]+$/g, '');
  if (Buffer.byteLength(combined) > MAX_VALUE_BYTES) return [['aca-header-too-long'], null];
  let parsed;
  try {
    parsed = entries(combined);
  } catch (e) {
    if (e instanceof Syntax) return [['aca-header-syntax'], null];
    throw e;
  }
  if (parsed.length === 0) return [['aca-header-missing'], null];
  if (parsed.length > MAX_ENTRIES) return [['aca-header-too-long'], null];
  const out = [];
  const runs = new Set();
  const seen = new Set();
  for (const [url, params] of parsed) {
    if (!webUrlOk(url)) err('aca-url-invalid');
    const names = params.map((p) => p[0]);
    if (new Set(names).size !== names.length) err('aca-header-param-duplicate');
    const entry = { source: url };
    // A header-only entry (no manifest) is Level 1 (profile ACA-L1-005); Level 2 needs one.
    for (const [name, value, isQuoted, backslash] of params) {
      if ((name === 'manifest' || name === 'run') && (!isQuoted || backslash)) {
        err('aca-header-param-form');
      } else if (name === 'manifest') {
        if (!webUrlOk(value)) err('aca-url-invalid');
        if (!('manifest' in entry)) entry.manifest = value;
      } else if (name === 'run') {
        if (!RUN_ID.test(value)) err('aca-run-id-invalid');
        runs.add(value);
        if (!('run' in entry)) entry.run = value;
      }
    }
    const others = params.filter((p) => p[0] !== 'manifest' && p[0] !== 'run').map((p) => [p[0], p[1]]);
    if (others.length) entry.params = others;
    if (webUrlOk(url)) {
      const key = urlKey(url);
      if (seen.has(key)) err('aca-header-duplicate-source');
      seen.add(key);
    }
    out.push(entry);
  }
  if (runs.size > 1) err('aca-run-mismatch');
  return [errors, errors.length ? null : out];
}

/** `aca-header-emit`: one field value for the entries; [errors, value]. An entry that would
 * break ACA-L1 is found by parsing the emitted value back (the same codes as parsing). */
export function headerEmit(entries) {
  const quote = (v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  const isToken = (v) => v.length > 0 && [...v].every((c) => TCHAR.test(c));
  const parts = entries.map((e) => {
    // A header-only entry (no manifest) is written `<S>` (profile ACA-L1-005).
    let s = `<${e.source}>`;
    if (e.manifest !== undefined) s += `; manifest=${quote(e.manifest)}`;
    if (e.run !== undefined) s += `; run=${quote(e.run)}`;
    for (const [name, value] of e.params ?? []) s += `; ${name}=${isToken(value) ? value : quote(value)}`;
    return s;
  });
  const value = parts.join(', ');
  const [errors] = headerParse([value]);
  return [errors, errors.length ? null : value];
}
