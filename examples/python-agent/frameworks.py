"""Where a framework's citations go in an ACA manifest, and one conversion for real.

* **OpenAI** (Responses API): an ``output_text`` content part has ``annotations`` of type
  ``url_citation`` with ``start_index``/``end_index`` into the *answer* text, ``url`` and
  ``title``. The cited answer span is the claim text; the ``url`` is its source; the excerpt is
  where that text occurs in the source bytes (the annotation does not say: it is located in the
  bytes the agent fetched, which the ledger captured). Converted by :func:`from_openai_message`.
* **LangChain**: a ``Document`` has ``page_content`` and ``metadata`` (``source``, and with
  ``add_start_index=True`` a ``start_index`` in characters of the loaded text): ``source`` is the
  URL, ``page_content`` the excerpt; the claim text is the answer sentence that cites it.
* **LlamaIndex**: a ``TextNode`` carries ``start_char_idx``/``end_char_idx`` into its source
  document and ``metadata["url"]``: the excerpt offsets, once turned from characters into UTF-8
  byte offsets of the fetched bytes.

Offsets in all three count characters of decoded text; an ACA manifest counts bytes of the
source as served (ACA-L2-006), so every conversion locates the excerpt in the captured bytes.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from citeproof.ledger import Ledger


def from_openai_message(message: Mapping[str, Any], fetch: Callable[[str], bytes], ledger: Ledger,
                        *, tool: str = "web_search") -> list[str]:
    """Registers every ``url_citation`` of an OpenAI Responses API output message as a claim of
    ``ledger``; ``fetch(url)`` returns the bytes the agent read at that URL (a cache, never the
    network here). Returns the claim ids, in annotation order."""
    call = ledger.tool_call(tool, {"urls": sorted({a["url"] for part in message["content"]
                                                   for a in part.get("annotations", [])
                                                   if a.get("type") == "url_citation"})})
    captures: dict[str, int] = {}
    ids = []
    for part in message["content"]:
        if part.get("type") != "output_text":
            continue
        text = part["text"]
        for a in part.get("annotations", []):
            if a.get("type") != "url_citation":
                continue
            claim = text[a["start_index"]:a["end_index"]].strip()
            url = a["url"]
            if url not in captures:
                captures[url] = ledger.capture(call, url, fetch(url), category="web_search")
            ids.append(ledger.register(claim, capture=captures[url], quote=claim))
    return ids
