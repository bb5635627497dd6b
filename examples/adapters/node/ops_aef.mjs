// `aef-validate`: AI Evidence Format v0.1 Level 1 (docs/PROFILE.md AEF-4-*, AEF-VOC-*, JSON-*,
// CANON-002), and `aef-jws-sign`: the detached EdDSA JWS of AEF §5 (jose).
// Level 1 is schema validity: as in the published schema, integers have the JSON Schema meaning
// (1.0 is one), timestamps are any RFC 3339 date-time, selector values any string.

import canonicalize from 'canonicalize';
import { CompactSign, importJWK } from 'jose';
import { JsonError, parse } from './strict_json.mjs';

const SPEC = {
  'source.type': ['document', 'webpage', 'api_response', 'knowledge_graph', 'aeo_declaration', 'dataset', 'database_row'],
  'span.selector_type': ['byte_range', 'line_range', 'xpath', 'css', 'text_quote', 'paragraph_index', 'none'],
  'retrieval.method': ['vector', 'keyword', 'graph', 'hybrid', 'direct_fetch', 'model_recall'],
  synthesis_role: ['supporting', 'contradicting', 'partial', 'background'],
};
const MEMBERS = {
  '': ['evidence_version', 'evidence_id', 'claim_text', 'source', 'span', 'retrieval', 'verification', 'synthesis_role', 'notes'],
  source: ['uri', 'type', 'title', 'publisher', 'published_at', 'fetched_at'],
  span: ['selector_type', 'selector_value', 'exact_text', 'surrounding_context'],
  retrieval: ['method', 'confidence', 'rank', 'freshness_age_seconds', 'retriever_id'],
  verification: ['content_hash', 'signature', 'signing_key_uri', 'signed_by'],
};
const REQUIRED = {
  '': ['evidence_id', 'claim_text', 'source', 'span', 'retrieval', 'verification', 'synthesis_role'],
  source: ['uri', 'type', 'fetched_at'],
  span: ['selector_type'],
  retrieval: ['method'],
  verification: ['content_hash'],
};
// RFC 3339 §5.6 date-time: `T` and `Z` case-insensitive, any fraction, leap second 60.
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;
const HASH = /^sha256:[0-9a-f]{64}$/;

const has = (obj, name) => Object.prototype.hasOwnProperty.call(obj, name);
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isNumber = (v) => typeof v === 'number';
const isString = (v) => typeof v === 'string';

function daysInMonth(year, month) {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

export function timestampOk(text) {
  const m = TIMESTAMP.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (!(month >= 1 && month <= 12 && hour <= 23 && minute <= 59 && second <= 60)) return false;
  if (!(day >= 1 && day <= daysInMonth(year, month))) return false;
  if (m[9] && (Number(m[10]) > 23 || Number(m[11]) > 59)) return false;
  return true;
}

/** Seconds since the epoch, or null for year 0 (outside the calendar the Python adapter uses). */
function instant(text) {
  const m = TIMESTAMP.exec(text);
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
  if (y === 0) return null;
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, 0);
  const frac = Number('0' + (m[7] || '.0'));
  const offset = /[Zz]/.test(m[8]) ? 0 : (Number(m[10]) * 60 + Number(m[11])) * (m[9] === '+' ? 1 : -1);
  return date.getTime() / 1000 + frac - offset * 60;
}

class Findings {
  constructor() {
    this.errors = [];
    this.warnings = [];
  }
  error(code) {
    if (!this.errors.includes(code)) this.errors.push(code);
  }
  warn(code) {
    if (!this.warnings.includes(code)) this.warnings.push(code);
  }
}

function checkObject(obj, where, f) {
  for (const name of Object.keys(obj)) if (!MEMBERS[where].includes(name)) f.error('unknown-member');
  for (const name of REQUIRED[where]) if (!has(obj, name)) f.error('schema-violation');
}

function checkEnum(obj, name, key, f) {
  if (!has(obj, name)) return;
  const v = obj[name];
  if (!isString(v)) f.error('schema-violation');
  // Landing-page values too: Level 1 is the published schema (profile AEF-VOC-001).
  else if (!SPEC[key].includes(v)) f.error('aef-vocabulary-invalid');
}

function checkSpan(span, f) {
  for (const name of ['selector_value', 'exact_text', 'surrounding_context']) {
    if (has(span, name) && !isString(span[name])) {
      f.error('schema-violation');
      return;
    }
  }
  checkEnum(span, 'selector_type', 'span.selector_type', f);
  const type = span.selector_type;
  if (type === 'none') {
    if (has(span, 'selector_value')) f.warn('aef-selector-value-ignored');
    return;
  }
  if (isString(type) && !has(span, 'selector_value')) f.error('schema-violation');
  else if (!has(span, 'exact_text')) f.warn('aef-exact-text-missing');
}

/** [errors, warnings] of one evidence document given as raw text. */
export function validate(text) {
  const f = new Findings();
  let doc;
  try {
    doc = parse(text);
  } catch (e) {
    if (!(e instanceof JsonError)) throw e;
    f.error(e.code);
    return [f.errors, f.warnings];
  }
  if (!isObject(doc)) {
    f.error('schema-violation');
    return [f.errors, f.warnings];
  }
  checkObject(doc, '', f);
  if (!has(doc, 'evidence_version')) f.error('schema-violation');
  else if (doc.evidence_version !== '0.1') f.error('aef-version-unsupported');
  for (const name of ['evidence_id', 'claim_text']) {
    if (has(doc, name) && !(isString(doc[name]) && doc[name])) f.error('schema-violation');
  }
  if (has(doc, 'notes') && !isString(doc.notes)) f.error('schema-violation');
  checkEnum(doc, 'synthesis_role', 'synthesis_role', f);

  const source = doc.source;
  if (isObject(source)) {
    checkObject(source, 'source', f);
    if (has(source, 'uri') && !(isString(source.uri) && URI.test(source.uri))) f.error('schema-violation');
    checkEnum(source, 'type', 'source.type', f);
    for (const name of ['title', 'publisher']) if (has(source, name) && !isString(source[name])) f.error('schema-violation');
    const times = {};
    for (const name of ['published_at', 'fetched_at']) {
      if (!has(source, name)) continue;
      const v = source[name];
      if (!isString(v)) f.error('schema-violation');
      else if (!timestampOk(v)) f.error('schema-timestamp-invalid');
      else times[name] = instant(v);
    }
    if (has(times, 'published_at') && has(times, 'fetched_at') && times.published_at !== null &&
        times.fetched_at !== null && times.published_at > times.fetched_at) {
      f.warn('aef-published-after-fetched');
    }
  } else if (has(doc, 'source')) {
    f.error('schema-violation');
  }

  const retrieval = doc.retrieval;
  if (isObject(retrieval)) {
    checkObject(retrieval, 'retrieval', f);
    checkEnum(retrieval, 'method', 'retrieval.method', f);
    if (has(retrieval, 'confidence')) {
      const c = retrieval.confidence;
      if (!(isNumber(c) && c >= 0 && c <= 1)) f.error('schema-violation');
    }
    if (has(retrieval, 'rank')) {
      const r = retrieval.rank;
      if (!(Number.isInteger(r) && r >= 1)) f.error('schema-violation');
    }
    if (has(retrieval, 'freshness_age_seconds')) {
      const a = retrieval.freshness_age_seconds;
      if (!(Number.isInteger(a) && a >= 0)) f.error('schema-violation');
    }
    if (has(retrieval, 'retriever_id') && !isString(retrieval.retriever_id)) f.error('schema-violation');
  } else if (has(doc, 'retrieval')) {
    f.error('schema-violation');
  }

  const verification = doc.verification;
  if (isObject(verification)) {
    checkObject(verification, 'verification', f);
    if (has(verification, 'content_hash')) {
      const h = verification.content_hash;
      if (!(isString(h) && HASH.test(h))) f.error('canon-hash-syntax');
    }
    for (const name of ['signature', 'signed_by']) {
      if (has(verification, name) && !isString(verification[name])) f.error('schema-violation');
    }
    if (has(verification, 'signing_key_uri')) {
      const u = verification.signing_key_uri;
      if (!(isString(u) && URI.test(u))) f.error('schema-violation');
    }
  } else if (has(doc, 'verification')) {
    f.error('schema-violation');
  }

  const span = doc.span;
  if (isObject(span)) {
    checkObject(span, 'span', f);
    checkSpan(span, f);
  } else if (has(doc, 'span')) {
    f.error('schema-violation');
  }
  return [f.errors, f.warnings];
}

/** The AEF §5 signing input: JCS of the evidence without `signature` and `signing_key_uri`. */
export function signingInput(evidence) {
  const copy = structuredClone(evidence);
  if (isObject(copy.verification)) {
    delete copy.verification.signature;
    delete copy.verification.signing_key_uri;
  }
  return new TextEncoder().encode(canonicalize(copy));
}

/** The detached compact JWS (RFC 7515 Appendix F) of an evidence object. */
export async function jwsSign(input) {
  const key = await importJWK(input.private_jwk, 'EdDSA');
  const header = input.kid === undefined ? { alg: 'EdDSA' } : { alg: 'EdDSA', kid: input.kid };
  const jws = await new CompactSign(signingInput(input.evidence)).setProtectedHeader(header).sign(key);
  const [protectedHeader, , signature] = jws.split('.');
  return `${protectedHeader}..${signature}`;
}
