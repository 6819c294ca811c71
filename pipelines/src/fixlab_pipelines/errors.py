"""The one error type of the pipelines: a refused input, named by file, line and rule.

Every message reads `path:LINE: rule: explanation` so that editors and CI logs can jump
to the place, and so that a person knows which check failed and what to do about it.
"""

from __future__ import annotations

from pathlib import Path


class ValidationError(Exception):
    def __init__(self, path: Path | str, line: int, rule: str, explanation: str) -> None:
        self.path = Path(path)
        self.line = line
        self.rule = rule
        self.explanation = explanation
        super().__init__(f"{self.path}:{line}: {rule}: {explanation}")


class UsageError(Exception):
    """A command that cannot do what was asked (bad arguments, nothing to compare)."""
