#!/usr/bin/env node
// A citeproof conformance adapter in Node.js. It speaks the JSON-lines protocol of
// docs/ADAPTER.md on stdin/stdout and implements a real subset of the operations with npm's
// `canonicalize` (RFC 8785) and `jose` (JWS):
//
//   node examples/adapters/node/citeproof_adapter.mjs        (after `npm ci` in this directory)
//   citeproof conformance --impl "node examples/adapters/node/citeproof_adapter.mjs"
//
// Operations it does not announce are reported as skipped by the runner, never as passed.

import { createInterface } from 'node:readline';
import { headerEmit, headerParse } from './ops_aca.mjs';
import { jwsSign, validate as aefValidate } from './ops_aef.mjs';
import { aefText, jcs, sha256 } from './ops_canon.mjs';
import { JsonError } from './strict_json.mjs';

const IMPLEMENTATION = {
  name: 'citeproof-node-example',
  version: '0.1.0',
  language: 'javascript',
  homepage: 'https://github.com/citeproof/citeproof/tree/main/examples/adapters/node',
};

const valid = (output, warnings = []) => {
  const reply = { result: 'valid', errors: [] };
  if (warnings.length) reply.warnings = warnings;
  if (output !== undefined) reply.output = output;
  return reply;
};
const invalid = (errors, warnings = []) => {
  const reply = { result: 'invalid', errors };
  if (warnings.length) reply.warnings = warnings;
  return reply;
};

const OPERATIONS = {
  'jcs-canonicalize': (input) => {
    try {
      return valid({ canonical: jcs(input) });
    } catch (e) {
      if (e instanceof JsonError) return invalid([e.code]);
      throw e;
    }
  },
  'hash-bytes': (input) => valid({ hash: sha256(Buffer.from(input.data_base64, 'base64')) }),
  'hash-aef-text': (input) => {
    let text;
    try {
      text = aefText(Buffer.from(input.data_base64, 'base64'));
    } catch {
      return invalid(['canon-text-not-utf8']);
    }
    return valid({ hash: sha256(text) });
  },
  'aca-header-parse': (input) => {
    const [errors, entries] = headerParse(input.values);
    return errors.length ? invalid(errors) : valid({ entries });
  },
  'aca-header-emit': (input) => {
    const [errors, value] = headerEmit(input.entries);
    return errors.length ? invalid(errors) : valid({ value });
  },
  'aef-validate': (input) => {
    const [errors, warnings] = aefValidate(input.document);
    return errors.length ? invalid(errors, warnings) : valid(undefined, warnings);
  },
  'aef-jws-sign': async (input) => valid({ signature: await jwsSign(input) }),
};

async function handle(message) {
  if (message.cmd === 'start') {
    return { protocol: 1, implementation: IMPLEMENTATION, operations: Object.keys(OPERATIONS).sort() };
  }
  if (message.cmd !== 'run') return null;
  const { seq, case: c } = message;
  const op = OPERATIONS[c.operation];
  if (!op) return { seq, skipped: true, message: `operation ${c.operation} not implemented` };
  try {
    return { seq, ...(await op(c.input)) };
  } catch (e) {
    // A bug or an input it cannot read: report it and keep serving.
    return { seq, errored: true, message: `${e.name}: ${e.message}` };
  }
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  const message = JSON.parse(line);
  if (message.cmd === 'stop') break;
  const reply = await handle(message);
  if (reply !== null) process.stdout.write(JSON.stringify(reply) + '\n');
}
process.exit(0);
