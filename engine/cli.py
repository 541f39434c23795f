"""What the engine's command-line tools share: one error for bad input, one Italian argument parser.

``python -m engine.rank`` and ``python -m engine.simulate`` speak Italian to the user: a bad
argument is one Italian sentence on stderr (exit status 2), never argparse's English usage dump.
"""

from __future__ import annotations

import argparse
from typing import Any, NoReturn

__all__ = ["InputError", "ItalianParser"]


class InputError(Exception):
    """Bad input: the message is the one Italian sentence shown to the user."""


class ItalianParser(argparse.ArgumentParser):
    """argparse with its English error messages replaced by one Italian sentence, ``refusal``."""

    def __init__(self, *args: Any, refusal: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.refusal = refusal

    def error(self, message: str) -> NoReturn:
        raise InputError(self.refusal)
