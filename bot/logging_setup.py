"""Logging for ``python -m bot``: one stream handler that can never print the token.

discord.py does not log the token itself, but an exception message or a debug line from a library
might; a filter on the handler replaces it wherever it appears, so the guarantee does not depend
on every library behaving.
"""

from __future__ import annotations

import logging
import sys

__all__ = ["QUIET_LOGGERS", "REDACTED", "TokenRedactor", "quiet_chatty_loggers", "setup_logging"]

REDACTED = "[token nascosto]"

QUIET_LOGGERS = ("discord.http", "discord.gateway", "discord.webhook", "aiosqlite")
"""Libraries whose DEBUG lines carry payloads: ``discord.http`` logs every request body (a DM with a
player's cards, an ephemeral ``/carte`` answer), the gateway and webhook loggers the interaction
payloads, and ``aiosqlite`` every statement with its parameters (the engine state, hand records).
Hole cards must never reach a log line, so these stay at INFO even when LOG_LEVEL=DEBUG."""


def quiet_chatty_loggers() -> None:
    """Keep the loggers in `QUIET_LOGGERS` at INFO or above, whatever the root level is.

    Called by `setup_logging` and again when the bot is built, so that a host (or a test) that
    configures logging its own way still never sees hole cards in DEBUG lines.
    """
    for name in QUIET_LOGGERS:
        logger = logging.getLogger(name)
        if logger.level == logging.NOTSET or logger.level < logging.INFO:
            logger.setLevel(logging.INFO)


class TokenRedactor(logging.Filter):
    """Rewrite a record whose text (message, arguments or traceback) contains a secret."""

    def __init__(self, *secrets: str) -> None:
        super().__init__()
        self._secrets = tuple(s for s in secrets if s)

    def _scrub(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, REDACTED)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        scrubbed = self._scrub(message)
        if scrubbed != message:
            record.msg, record.args = scrubbed, None
        if record.exc_text:
            record.exc_text = self._scrub(record.exc_text)
        if record.stack_info:
            record.stack_info = self._scrub(record.stack_info)
        return True


def setup_logging(level: int, *, token: str) -> logging.Handler:
    """Send every log record at `level` or above to stderr, with the token scrubbed out."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-8s %(name)s: %(message)s"))
    handler.addFilter(TokenRedactor(token))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # Not even LOG_LEVEL=DEBUG may print a hole card: see QUIET_LOGGERS.
    quiet_chatty_loggers()
    return handler
