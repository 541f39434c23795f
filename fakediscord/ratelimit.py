"""Discord's rate limits (per-route buckets per channel, a global bucket) and the faults a test injects.

A bucket answers with Discord's headers on every response of its route, so discord.py paces itself as in
production; past the bucket, or while a test throttles a channel or forces failures, the request gets
Discord's 429 (or a 5xx, or a dropped connection). The clock is injectable (`RateLimiter.clock`) and
the windows come from `Rules`, so a test can use a half-second window instead of five seconds.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from fakediscord.rules import Rules

# Routes with a bucket per channel, by (method, route template); templates use discord.py's placeholders.
CHANNEL_BUCKETS = {
    ("POST", "/channels/{channel_id}/messages"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
}
OPEN_BUCKET = 10_000
"""The size of the buckets announced while rate limits are off: discord.py reads the headers as it
does Discord's (without them it re-checks its bucket after every request), and never waits."""
# Interaction callbacks and follow-ups do not count against the global limit.
GLOBAL_EXEMPT_PREFIXES = ("/interactions/", "/webhooks/")
SERVER_ERRORS = {500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable"}
Outcome = Literal[429, 500, 502, 503, "drop"]


@dataclass
class Bucket:
    """A fixed window: `limit` requests, then refusals until `reset_at`."""

    limit: int
    window: float
    used: int = 0
    reset_at: float = 0.0

    def take(self, now: float) -> bool:
        if now >= self.reset_at:
            self.used, self.reset_at = 0, now + self.window
        if self.used >= self.limit:
            return False
        self.used += 1
        return True


@dataclass
class Fault:
    """`times` forced outcomes for requests matching `method`/`route` (None: any) and `channel_id`."""

    outcome: Outcome
    times: int
    method: str | None = None
    route: str | None = None
    channel_id: int | None = None
    retry_after: float = 0.05
    hits: int = 0

    def matches(self, method: str, route: str, channel_id: int | None) -> bool:
        return (
            self.hits < self.times
            and self.method in (None, method)
            and self.route in (None, route)
            and self.channel_id in (None, channel_id)
        )


@dataclass
class Verdict:
    """What the limiter decided for one request: headers to add, or a refusal."""

    headers: dict[str, str] = field(default_factory=dict)
    status: int | Literal["drop"] | None = None  # None: let the request through
    body: dict[str, object] = field(default_factory=dict)


def bucket_hash(method: str, route: str) -> str:
    return hashlib.sha1(f"{method} {route}".encode()).hexdigest()[:16]


class RateLimiter:
    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.clock: Callable[[], float] = time.monotonic
        self.wall: Callable[[], float] = time.time
        self.buckets: dict[tuple[str, int], Bucket] = {}
        self.global_bucket: Bucket | None = None
        self.throttled: dict[int, float] = {}  # channel id → clock time the throttle ends
        self.faults: list[Fault] = []
        self.refused: list[tuple[str, str, int | None, int | str]] = []  # (method, route, channel, status)

    def throttle(self, channel_id: int, seconds: float) -> None:
        self.throttled[channel_id] = self.clock() + seconds

    def judge(self, method: str, route: str, channel_id: int | None) -> Verdict:
        verdict = self._judge(method, route, channel_id)
        if verdict.status is not None:
            self.refused.append((method, route, channel_id, verdict.status))
        return verdict

    def _judge(self, method: str, route: str, channel_id: int | None) -> Verdict:
        now = self.clock()
        for fault in self.faults:
            if fault.matches(method, route, channel_id):
                fault.hits += 1
                return self._forced(fault, method, route)
        if channel_id is not None and channel_id in self.throttled:
            until = self.throttled[channel_id]
            if now < until:
                return self._limited(method, route, until - now, scope="user", limit=1)
            del self.throttled[channel_id]
        if not self.rules.rate_limits:
            # Discord names a bucket on every answer; off, the bucket is one no bot empties.
            if (method, route) in CHANNEL_BUCKETS and channel_id is not None:
                _limit, window = self.rules.channel_bucket
                return Verdict(self._headers(method, route, OPEN_BUCKET, OPEN_BUCKET - 1, window))
            return Verdict()
        if not route.startswith(GLOBAL_EXEMPT_PREFIXES):
            limit, window = self.rules.global_bucket
            if self.global_bucket is None or (self.global_bucket.limit, self.global_bucket.window) != (
                limit,
                window,
            ):
                self.global_bucket = Bucket(limit, window)
            if not self.global_bucket.take(now):
                return self._limited(
                    method, route, self.global_bucket.reset_at - now, scope="global", limit=limit
                )
        if (method, route) not in CHANNEL_BUCKETS or channel_id is None:
            return Verdict()
        limit, window = self.rules.channel_bucket
        key = (bucket_hash(method, route), channel_id)
        bucket = self.buckets.get(key)
        if bucket is None or (bucket.limit, bucket.window) != (limit, window):
            bucket = self.buckets[key] = Bucket(limit, window)
        if not bucket.take(now):
            return self._limited(method, route, bucket.reset_at - now, scope="user", limit=limit)
        return Verdict(self._headers(method, route, limit, limit - bucket.used, bucket.reset_at - now))

    def _headers(
        self, method: str, route: str, limit: int, remaining: int, reset_after: float
    ) -> dict[str, str]:
        reset_after = max(reset_after, 0.0)
        return {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(max(remaining, 0)),
            "X-RateLimit-Reset": f"{self.wall() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket_hash(method, route),
        }

    def _limited(self, method: str, route: str, retry_after: float, *, scope: str, limit: int) -> Verdict:
        retry_after = round(max(retry_after, 0.001), 3)
        is_global = scope == "global"
        headers = self._headers(method, route, limit, 0, retry_after) | {
            "X-RateLimit-Scope": scope,
            "Retry-After": str(math.ceil(retry_after)),
            # discord.py takes a 429 without `Via` for a Cloudflare ban and gives up at once.
            "Via": "1.1 google",
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        body: dict[str, object] = {
            "message": "You are being rate limited.",
            "retry_after": retry_after,
            "global": is_global,
        }
        if not is_global:
            body["code"] = 0
        return Verdict(headers, 429, body)

    def _forced(self, fault: Fault, method: str, route: str) -> Verdict:
        if fault.outcome == 429:
            return self._limited(method, route, fault.retry_after, scope="user", limit=1)
        if fault.outcome == "drop":
            return Verdict(status="drop")
        status = int(fault.outcome)
        return Verdict(status=status, body={"message": f"{status}: {SERVER_ERRORS[status]}", "code": 0})
