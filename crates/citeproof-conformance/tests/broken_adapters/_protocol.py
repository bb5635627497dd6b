"""The handshake of the small protocol adapters here (docs/ADAPTER.md §2): their answer to
`start`, the same for each but for its name and operations."""

import json


def announce(name, operations):
    print(json.dumps({"protocol": 1, "implementation": {"name": name, "version": "0", "language": "python"},
                      "operations": operations}), flush=True)
