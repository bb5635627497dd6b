"""The error and warning codes of one answer (docs/ADAPTER.md §3.3): each code once, in the
order it was first found. Shared by the validators of ops_aef.py and ops_ledger.py."""


class Findings:
    def __init__(self):
        self.errors, self.warnings = [], []

    def error(self, code):
        if code not in self.errors:
            self.errors.append(code)

    def warn(self, code):
        if code not in self.warnings:
            self.warnings.append(code)
