"""The switches that make the fake as strict as Discord, one per behaviour, changeable per test.

The strict rules a correct bot never trips are on by default (the answer deadline, one answer per
interaction, payload limits, command registration rules, a private follow-up that would land on a
public placeholder): when the bot trips one, Discord's own error goes back to it *and* the fake records
a violation, which fails the test at teardown even if the bot swallowed the error. Rate limits are off
by default: with Discord's numbers discord.py sleeps up to five seconds before the sixth edit of a
message in five seconds, which is right in production and only slow in a test; a test turns them on
(`fake.rules.rate_limits = True`), usually with smaller windows.
"""

from __future__ import annotations

from dataclasses import dataclass

MIB = 1024 * 1024


@dataclass
class Rules:
    """Mutable on purpose: `fake.rules.deadline = 0.2` in a test changes the running fake at once."""

    # Seconds from INTERACTION_CREATE to the initial response; later → 404, code 10062. None: no deadline.
    deadline: float | None = 3.0
    # Seconds the interaction token serves follow-ups and edits of the original response (15 minutes).
    token_lifetime: float = 15 * 60
    # A second initial response → 400, code 40060.
    one_answer: bool = True
    # Content, embed, component, modal and attachment limits → 400, code 50035 (or 413 for big files).
    payload_limits: bool = True
    # Application commands that break Discord's registration rules (registration.py) → 400, code 50035;
    # a bulk overwrite is refused whole.
    registration_rules: bool = True
    # The first follow-up after a public "thinking…" defer replaces the placeholder and stays public even
    # if it asks to be ephemeral: Discord accepts it, the fake records it as a violation (a private
    # refusal shown to the whole channel).
    private_followup_on_public_defer: bool = True
    # Per-channel buckets for message create and edit, and a global bucket; 429 past them.
    rate_limits: bool = False
    channel_bucket: tuple[int, float] = (5, 5.0)  # requests, window in seconds, per route and channel
    global_bucket: tuple[int, float] = (50, 1.0)  # requests per window for every route but interactions
    # Largest attachment accepted (Discord's value depends on the guild's boost level).
    attachment_size_limit: int = 25 * MIB
