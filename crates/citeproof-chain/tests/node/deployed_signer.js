// The producer's deployed signing path, re-created for citeproof's interop test from the facts
// in docs/PROFILE.md (CHAIN-002, CHAIN-006): the claim id from `vertical|subject|predicate|object`
// trimmed and lowercased, the HMAC-SHA256 over JSON.stringify(payload, Object.keys(payload).sort()),
// and the envelope written with JSON.stringify(envelope, null, 2).
//
// Modes (JSON on stdin, JSON on stdout):
//   sign     {"secret", "signedAt", "claims": [claim without id and statement]} -> [envelope text]
//   numbers  {"bits": ["<16 hex digits>"]}  -> [String(x)]
//   ids      {"fields": [[v, s, p, o]]}     -> [claim id]
//   probe    -> {"node": version}
'use strict';
const crypto = require('crypto');

function claimId(v, s, p, o) {
  const text = [v, s, p, o].map((f) => f.trim().toLowerCase()).join('|');
  return crypto.createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
}

function deployedPayload(claim) {
  const payload = {
    id: claim.id,
    vertical: claim.vertical,
    subject: claim.subject,
    predicate: claim.predicate,
    object: claim.object,
    statement: claim.statement,
    confidence: claim.confidence,
    sources: claim.sources.map((s) => ({
      url: s.url,
      title: s.title,
      publisher: s.publisher,
      publishedDate: s.publishedDate ?? null,
      type: s.type,
    })),
    publishedAt: claim.publishedAt,
    methodologyVersion: claim.methodologyVersion,
  };
  return JSON.stringify(payload, Object.keys(payload).sort());
}

function envelope(seed, secret, signedAt) {
  const id = claimId(seed.vertical, seed.subject, seed.predicate, seed.object);
  const verb = seed.predicate.replace(/_/g, ' ').trim();
  const claim = { ...seed, id, statement: `${seed.subject} ${verb}: ${seed.object}.` };
  const signature = crypto.createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(deployedPayload(claim), 'utf8').digest('hex');
  const sig = { algorithm: 'HMAC-SHA256', signedBy: 'did:web:sourcescore.org', signedAt, signature };
  const canonical = `https://sourcescore.org/claims/${id}/`;
  return JSON.stringify({
    apiVersion: 'v1',
    methodology: 'https://sourcescore.org/methodology/',
    canonical,
    claim,
    signature: sig,
    citedAs: `${claim.statement} — SourceScore Claim ${id} (verified ${claim.lastVerified}, signed ${signature.slice(0, 8)}…). ${canonical}`,
  }, null, 2);
}

const mode = process.argv[2];
if (mode === 'probe') {
  process.stdout.write(JSON.stringify({ node: process.version }));
} else {
  const req = JSON.parse(require('fs').readFileSync(0, 'utf8'));
  let out;
  if (mode === 'sign') {
    out = req.claims.map((c) => envelope(c, req.secret, req.signedAt));
  } else if (mode === 'numbers') {
    out = req.bits.map((b) => String(Buffer.from(b, 'hex').readDoubleBE(0)));
  } else if (mode === 'ids') {
    out = req.fields.map((f) => claimId(...f));
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
  process.stdout.write(JSON.stringify(out));
}
