"""WARC interop with warcio (an independent reader and writer, the Webrecorder project's).

  read FILE.warc   prints one JSON line per record: type, target URI, HTTP status, the HTTP
                   header fields, sha256 of the payload (warcio de-chunks and reads bodies itself)
  write IN.json OUT.warc
                   writes a WARC with warcio from a JSON description
                   {"agent": URL, "responses": [{"url","status","headers":[[n,v]],"body_b64","chunked"?}]}
                   (a warcinfo record naming the agent response, then request/response pairs;
                   "chunked" stores that body with Transfer-Encoding: chunked, as live recorders do)
"""

import base64
import hashlib
import io
import json
import sys

from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter


def read(path):
    with open(path, "rb") as f:
        for record in ArchiveIterator(f):
            out = {"type": record.rec_type, "uri": record.rec_headers.get_header("WARC-Target-URI")}
            if record.rec_type == "response":
                out["status"] = int(record.http_headers.get_statuscode())
                out["headers"] = [[k, v] for k, v in record.http_headers.headers]
                out["sha256"] = hashlib.sha256(record.content_stream().read()).hexdigest()
            print(json.dumps(out))


def chunk(body):
    out = b""
    for i in range(0, len(body), 7):
        part = body[i:i + 7]
        out += b"%x\r\n" % len(part) + part + b"\r\n"
    return out + b"0\r\n\r\n"


def write(spec_path, out_path):
    spec = json.load(open(spec_path))
    with open(out_path, "wb") as out:
        writer = WARCWriter(out, gzip=False)
        info = writer.create_warcinfo_record("run.warc", {"software": "warcio", "citeproof-agent-response": spec["agent"]})
        writer.write_record(info)
        for r in spec["responses"]:
            body = base64.b64decode(r["body_b64"])
            headers = [tuple(h) for h in r["headers"]]
            if r.get("chunked"):
                headers.append(("Transfer-Encoding", "chunked"))
                payload = chunk(body)
            else:
                headers.append(("Content-Length", str(len(body))))
                payload = body
            http = StatusAndHeaders("%d Status" % r["status"], headers, protocol="HTTP/1.1")
            req = writer.create_warc_record(r["url"], "request", payload=io.BytesIO(b"GET / HTTP/1.1\r\n\r\n"))
            writer.write_record(req)
            rec = writer.create_warc_record(r["url"], "response", payload=io.BytesIO(payload), http_headers=http)
            writer.write_record(rec)


if __name__ == "__main__":
    if sys.argv[1] == "read":
        read(sys.argv[2])
    else:
        write(sys.argv[2], sys.argv[3])
