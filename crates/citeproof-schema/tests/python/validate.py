"""Validates documents against citeproof's published schemas with Python's `jsonschema`
(an implementation independent of the Rust `jsonschema` crate citeproof uses).

stdin: JSON lines {"schema": "<file name in schemas/>", "document": <JSON text>}
stdout: one line per input: {"valid": bool, "errors": ["<path>: <message>", ...]}

Formats are asserted, as citeproof does (2020-12 makes them annotations unless asked):
`jsonschema[format-nongpl]` checks `date-time` (RFC 3339) and `uri` (RFC 3986).
"""

import json
import os
import sys

import jsonschema
from jsonschema import Draft202012Validator, FormatChecker

SCHEMAS = sys.argv[1]
checker = FormatChecker()
for needed in ("date-time", "uri"):
    assert needed in checker.checkers, f"format {needed} is not checked: pip install 'jsonschema[format-nongpl]'"
validators = {}

for line in sys.stdin:
    req = json.loads(line)
    name = req["schema"]
    if name not in validators:
        with open(os.path.join(SCHEMAS, name), encoding="utf-8") as f:
            schema = json.load(f)
        Draft202012Validator.check_schema(schema)
        validators[name] = Draft202012Validator(schema, format_checker=checker)
    doc = json.loads(req["document"])
    errors = ["%s: %s" % ("/" + "/".join(str(p) for p in e.absolute_path), e.message)
              for e in validators[name].iter_errors(doc)]
    print(json.dumps({"valid": not errors, "errors": errors[:3]}), flush=True)
