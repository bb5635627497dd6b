#!/usr/bin/env python3
"""An example agent service on the `citeproof` package and the standard library only.

It answers questions from the local documents of `docs/`, and emits, for every answer:

* the ``Citation-Source`` header naming the sources and the run's manifest (ACA Level 1);
* the manifest, built by the attribution ledger from the bytes it served (byte offsets and
  hashes computed from them), bound to the answer's URL and served as an RFC 9421 signed
  response (ACA Levels 2 and 3), with the discovery document publishing the key;
* the ledger document and its JSONL audit records (seed 003), appended to ``audit.jsonl``;
* one signed AEF evidence object per claim (AI Evidence Format Level 3).

Run it and verify an answer with the CLI::

    python3 examples/python-agent/agent.py --port 8080 &
    curl -s 'http://127.0.0.1:8080/ask?q=canonical+URLs'      # {"answer_url": ...}
    citeproof aca verify --allow-private --level 3 http://127.0.0.1:8080/answers/<run>
"""

from __future__ import annotations

import argparse
import json
import re
import secrets
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import citeproof
from citeproof import aca, aef
from citeproof.ledger import Ledger

DOCS = Path(__file__).resolve().parent / "docs"
AGENT_ID = "python-agent.citeproof/v1"
KID = "python-agent-1"
TEXT = "text/plain; charset=utf-8"
WORD = re.compile(r"[a-z0-9]+")
STOP = {"the", "a", "an", "of", "to", "and", "or", "is", "are", "what", "how", "do", "does",
        "with", "than", "more", "per", "only", "should", "its", "their", "at", "most"}


class Served:
    """What the agent serves: path -> (status, headers, body)."""

    def __init__(self) -> None:
        self.routes: dict[str, tuple[int, list[tuple[str, str]], bytes]] = {}
        self.lock = threading.Lock()

    def put(self, path: str, body: bytes, headers: list[tuple[str, str]], status: int = 200) -> None:
        with self.lock:
            self.routes[path] = (status, headers, body)

    def get(self, path: str) -> tuple[int, list[tuple[str, str]], bytes] | None:
        with self.lock:
            return self.routes.get(path)


def sentences(text: str) -> list[str]:
    return [s.strip() for s in text.splitlines() if s.strip().endswith(".")]


def words(text: str) -> set[str]:
    return {w for w in WORD.findall(text.lower()) if w not in STOP}


class Agent:
    def __init__(self, base_url: str, key: citeproof.SigningKey, audit_path: Path | None = None) -> None:
        self.base = base_url.rstrip("/")
        self.key = key
        self.audit_path = audit_path
        self.served = Served()
        self.docs = {p.name: p.read_bytes() for p in sorted(DOCS.glob("*.txt"))}
        for name, body in self.docs.items():
            self.served.put(f"/docs/{name}", body, [("Content-Type", TEXT)])
        discovery = aca.discovery_document(
            manifest_schema=f"{self.base}/schema/manifest-v1.json",
            contact="attribution@python-agent.invalid", keys={KID: key})
        self.served.put(aca.DISCOVERY_PATH, json.dumps(discovery).encode(),
                        [("Content-Type", "application/json")])
        jwks = citeproof.keys.jwk_set({KID: key})
        self.served.put("/jwks.json", json.dumps(jwks).encode(), [("Content-Type", "application/json")])

    def retrieve(self, question: str) -> list[tuple[str, str]]:
        """(document, sentence) pairs sharing a content word with the question, best first."""
        q = words(question)
        scored = []
        for name, body in self.docs.items():
            for s in sentences(body.decode("utf-8")):
                overlap = len(q & words(s))
                if overlap:
                    scored.append((-overlap, name, s))
        scored.sort()
        return [(name, s) for _, name, s in scored[:3]]

    def answer(self, question: str) -> dict[str, Any]:
        """Answers, emits every artefact of the run and returns where they are served."""
        now = int(time.time())
        run_id = f"run-{secrets.token_hex(8)}"
        path = f"/answers/{run_id}"
        answer_url = self.base + path
        picked = self.retrieve(question)
        ledger = Ledger(run_id)
        search = ledger.tool_call("search_local_docs", {"question": question})
        captures: dict[str, int] = {}
        for name, _ in picked:
            if name not in captures:
                captures[name] = ledger.capture(search, f"{self.base}/docs/{name}", self.docs[name])
        for name, sentence in picked:
            ledger.register(sentence, capture=captures[name], quote=sentence, confidence="high")
        ledger.register("This answer quotes the local documents it cites.", requires_attribution=False)
        coverage = ledger.gate()
        manifest = ledger.build_manifest(AGENT_ID, with_chain=True)
        signed = aca.sign_manifest(manifest, self.key, keyid=KID, created=now - 1,
                                   response_url=answer_url)
        self.served.put(f"{path}/manifest", signed["body"], signed["headers"], signed["status"])
        sources = [f"{self.base}/docs/{n}" for n in captures]
        header = aca.citation_source(sources, f"{answer_url}/manifest", run_id)
        text = " ".join(s for _, s in picked) + "\n" if picked else "I found nothing on that.\n"
        self.served.put(path, text.encode(), [("Content-Type", TEXT), ("Citation-Source", header)])
        self.served.put(f"{path}/ledger", json.dumps(ledger.to_document()).encode(),
                        [("Content-Type", "application/json")])
        audit = ledger.export_audit_log()
        self.served.put(f"{path}/audit.jsonl", audit.encode(), [("Content-Type", "application/jsonl")])
        if self.audit_path is not None:
            with self.audit_path.open("a", encoding="utf-8") as f:
                f.write(audit)
        evidence = []
        for n, (name, sentence) in enumerate(picked, 1):
            doc = aef.new_evidence(
                evidence_id=f"{run_id}-e{n}", claim_text=sentence,
                source_uri=f"{self.base}/docs/{name}",
                fetched_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - 2)),
                selector_type="text_quote", selector_value=sentence,
                body=self.docs[name], media_type=TEXT, retrieval_method="keyword")
            evidence.append(aef.sign_evidence(doc, self.key, kid=KID,
                                              signing_key_uri=f"{self.base}/jwks.json"))
        self.served.put(f"{path}/evidence.json", json.dumps(evidence).encode(),
                        [("Content-Type", "application/json")])
        return {"answer_url": answer_url, "run_id": run_id, "coverage": coverage,
                "evidence_url": f"{answer_url}/evidence.json", "ledger_url": f"{answer_url}/ledger",
                "audit_url": f"{answer_url}/audit.jsonl"}


def handler_for(agent_ref: dict[str, Agent]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            agent = agent_ref["agent"]
            url = urlsplit(self.path)
            if url.path == "/ask":
                question = parse_qs(url.query).get("q", [""])[0]
                body = json.dumps(agent.answer(question)).encode()
                self.reply(200, [("Content-Type", "application/json")], body)
                return
            found = agent.served.get(url.path)
            if found is None:
                self.reply(404, [("Content-Type", TEXT)], b"not found\n")
            else:
                self.reply(*found)

        def reply(self, status: int, headers: list[tuple[str, str]], body: bytes) -> None:
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


def serve(port: int = 0, key: citeproof.SigningKey | None = None,
          audit_path: Path | None = None) -> tuple[ThreadingHTTPServer, Agent]:
    """Starts the agent on 127.0.0.1:port (0: any free port) in a daemon thread."""
    ref: dict[str, Agent] = {}
    server = ThreadingHTTPServer(("127.0.0.1", port), handler_for(ref))
    base = f"http://127.0.0.1:{server.server_address[1]}"
    ref["agent"] = Agent(base, key or citeproof.SigningKey.generate(), audit_path)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, ref["agent"]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--port", type=int, default=8080)
    p.add_argument("--key", help="PKCS#8 PEM or private JWK file (default: a fresh key)")
    p.add_argument("--audit", type=Path, default=None, help="append JSONL audit records here")
    a = p.parse_args()
    key = citeproof.load_key(Path(a.key).read_bytes()) if a.key else None
    server, agent = serve(a.port, key, a.audit)
    print(f"python agent on {agent.base}; try {agent.base}/ask?q=canonical+URLs", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.shutdown()


if __name__ == "__main__":
    main()
