// Strict I-JSON parsing (docs/PROFILE.md JSON-001, JSON-002). JSON.parse keeps the last of
// duplicate names and accepts lone surrogates and noncharacters, so this is a small scanner of
// its own: the first problem in document order is reported with its registry code.

export const MAX_BYTES = 16 * 1024 * 1024;
export const MAX_DEPTH = 128;

export class JsonError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

export function isNoncharacter(cp) {
  return (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) === 0xfffe;
}

/** Parses bytes (Uint8Array) or a string; throws JsonError. Objects have no prototype. */
export function parse(input) {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  if (bytes.length > MAX_BYTES) throw new JsonError('json-too-large', 'document larger than 16 MiB');
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new JsonError('json-invalid-utf8', 'input is not UTF-8');
  }
  if (text.startsWith('\ufeff')) throw new JsonError('json-syntax', 'byte order mark');
  const p = new Parser(text);
  const value = p.value(0);
  p.ws();
  if (p.pos !== text.length) throw new JsonError('json-syntax', `unexpected text at ${p.pos}`);
  return value;
}

class Parser {
  constructor(text) {
    this.s = text;
    this.pos = 0;
  }

  ws() {
    while (this.pos < this.s.length && ' \t\n\r'.includes(this.s[this.pos])) this.pos++;
  }

  fail(what) {
    throw new JsonError('json-syntax', `${what} at ${this.pos}`);
  }

  value(depth) {
    this.ws();
    const c = this.s[this.pos];
    if (c === '{' || c === '[') {
      if (depth + 1 > MAX_DEPTH) throw new JsonError('json-too-large', `nesting deeper than ${MAX_DEPTH}`);
      return c === '{' ? this.object(depth + 1) : this.array(depth + 1);
    }
    if (c === '"') return this.string();
    for (const [word, v] of [['true', true], ['false', false], ['null', null]]) {
      if (this.s.startsWith(word, this.pos)) {
        this.pos += word.length;
        return v;
      }
    }
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.s);
    if (!m) this.fail('value expected');
    this.pos += m[0].length;
    const n = Number(m[0]);
    if (!Number.isFinite(n)) throw new JsonError('json-number-out-of-range', `${m[0]} overflows a double`);
    return n;
  }

  object(depth) {
    this.pos++;
    const obj = Object.create(null);
    const seen = new Set();
    this.ws();
    if (this.s[this.pos] === '}') {
      this.pos++;
      return obj;
    }
    for (;;) {
      this.ws();
      if (this.s[this.pos] !== '"') this.fail('member name expected');
      const name = this.string();
      if (seen.has(name)) throw new JsonError('json-duplicate-member', `duplicate member name ${JSON.stringify(name)}`);
      seen.add(name);
      this.ws();
      if (this.s[this.pos] !== ':') this.fail(': expected');
      this.pos++;
      obj[name] = this.value(depth);
      this.ws();
      const c = this.s[this.pos++];
      if (c === '}') return obj;
      if (c !== ',') this.fail(', or } expected');
    }
  }

  array(depth) {
    this.pos++;
    const out = [];
    this.ws();
    if (this.s[this.pos] === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth));
      this.ws();
      const c = this.s[this.pos++];
      if (c === ']') return out;
      if (c !== ',') this.fail(', or ] expected');
    }
  }

  hex4() {
    const h = this.s.slice(this.pos, this.pos + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(h)) this.fail('bad \\u escape');
    this.pos += 4;
    return parseInt(h, 16);
  }

  string() {
    this.pos++;
    let out = '';
    for (;;) {
      if (this.pos >= this.s.length) this.fail('unterminated string');
      const cp = this.s.codePointAt(this.pos);
      if (cp === 0x22) {
        this.pos++;
        return out;
      }
      if (cp < 0x20) this.fail('control character in string');
      if (cp === 0x5c) {
        const e = this.s[this.pos + 1];
        this.pos += 2;
        const simple = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }[e];
        if (simple !== undefined) {
          out += simple;
          continue;
        }
        if (e !== 'u') this.fail('bad escape');
        let u = this.hex4();
        if (u >= 0xdc00 && u <= 0xdfff) throw new JsonError('json-lone-surrogate', 'unpaired low surrogate');
        if (u >= 0xd800 && u <= 0xdbff) {
          if (this.s[this.pos] !== '\\' || this.s[this.pos + 1] !== 'u') {
            throw new JsonError('json-lone-surrogate', 'unpaired high surrogate');
          }
          this.pos += 2;
          const low = this.hex4();
          if (low < 0xdc00 || low > 0xdfff) throw new JsonError('json-lone-surrogate', 'unpaired high surrogate');
          u = 0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00);
        }
        if (isNoncharacter(u)) throw new JsonError('json-noncharacter', `noncharacter U+${u.toString(16)}`);
        out += String.fromCodePoint(u);
        continue;
      }
      if (isNoncharacter(cp)) throw new JsonError('json-noncharacter', `noncharacter U+${cp.toString(16)}`);
      const ch = String.fromCodePoint(cp);
      out += ch;
      this.pos += ch.length;
    }
  }
}
