"""The Discord benchmark's driver (bench/bench_discord.py) measures what it claims: counts, never times.

The figures themselves are the benchmark's business; here two tables play one hand each and the
counts must agree with each other: one latency sample and one callback per interaction, every
action at least one interaction, the tables' hands all played, nothing printed that looks like a card.
"""

from __future__ import annotations

import discord
import pytest

from bench import bench_discord
from bench.bench_discord import can_open, percentile, run
from engine.cards import parse_cards

CALLBACK = ("POST", "/interactions/{webhook_id}/{webhook_token}/callback")
TABLE_EDIT = ("PATCH", "/channels/{channel_id}/messages/{message_id}")
POST_MESSAGE = ("POST", "/channels/{channel_id}/messages")


@pytest.fixture(autouse=True)
def _restore_discord_endpoints(monkeypatch: pytest.MonkeyPatch) -> None:
    """The benchmark's bot points discord.py at its own fake; put the class attributes back after."""
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    gateway = discord.gateway.DiscordWebSocket
    monkeypatch.setattr(gateway, "DEFAULT_GATEWAY", gateway.DEFAULT_GATEWAY)


async def test_two_tables_one_hand_each_are_counted_consistently() -> None:
    result = await run(2, 1, seed=7)
    assert result.tables == 2 and result.hands == 2
    # The shortest hand of four players: the buio question and four passes (nobody opens).
    assert result.actions >= 2 * 5, result.by_kind
    assert sum(result.by_kind.values()) == result.actions
    # A word said by command or by a plain button is one interaction; a modal or a draw menu is two.
    assert result.actions <= result.interactions <= 2 * result.actions
    assert all(latency > 0 for latency in result.latencies)
    # Every interaction of the hands was answered exactly once, and nothing else reached the callback.
    assert result.rest_calls[CALLBACK] == result.interactions
    # A typed word edits the table message through the channel; a click edits it with its answer.
    assert 0 < result.rest_calls[TABLE_EDIT] <= result.actions
    # The first hand of a table asks for the buio before the deal, so the four DMs of the cards are
    # sent during the hand, and counted.
    assert result.rest_calls[POST_MESSAGE] >= 4 * result.hands
    assert result.rest_total > result.interactions


async def test_the_same_seed_plays_the_same_hands() -> None:
    first, second = await run(2, 1, seed=3), await run(2, 1, seed=3)
    assert first.by_kind == second.by_kind
    assert first.rest_calls == second.rest_calls


def test_the_printed_table_has_one_row_per_run_and_no_cards(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_discord.main(["--tavoli", "1,2", "--pausa", "0", "--azioni", "1"]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.split()[:2] in (["1", "0"], ["2", "0"])]
    assert [row[0] for row in rows] == ["1", "2"], out
    assert "REST/azione" in out and "p99 ms" in out
    assert not any(suit in out for suit in "♠♣♦♥"), "hole cards must never be printed"


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 99) == 99.0
    assert percentile(values, 50) == 50.0
    assert percentile([5.0], 99) == 5.0
    assert percentile([3.0, 1.0, 2.0], 100) == 3.0


def test_the_players_open_only_with_what_the_engine_accepts() -> None:
    # rules §2.4: a pair of the level or better; two pair opens at any level, a small pair does not.
    assert can_open(parse_cards("Jh Js 7d 8c Kc"), 11, 32)
    assert not can_open(parse_cards("Jh Js 7d 8c Kc"), 12, 32)
    assert can_open(parse_cards("8h 8s 7d 7c Kc"), 13, 32)
    assert not can_open(parse_cards("7s 8d 9c Qs Ad"), 11, 32)
