"""SHARD_COUNT and SHARD_IDS: which gateway shards (and so which servers' tables) this process runs."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, Settings

TOKEN = "fake-token"
PG = "postgresql://tavolo:secret@localhost:5432/tavolo_verde"


def settings(**values: str) -> Settings:
    return Settings.from_env({"DISCORD_TOKEN": TOKEN, **values})


def test_without_shard_settings_the_bot_is_not_sharded() -> None:
    plain = settings()
    assert plain.shard_count is None and plain.shard_ids is None
    assert not plain.sharded and plain.shards() == ()


def test_shard_ids_on_postgresql_are_read_sorted() -> None:
    chosen = settings(DATABASE_URL=PG, SHARD_COUNT="4", SHARD_IDS=" 3, 1 ")
    assert chosen.shard_count == 4 and chosen.shard_ids == (1, 3)
    assert chosen.sharded and chosen.shards() == (1, 3)


def test_the_count_alone_runs_every_shard_in_this_process() -> None:
    for extra in ({}, {"DATABASE_URL": PG}):
        every = settings(SHARD_COUNT="3", **extra)
        assert every.shard_count == 3 and every.shard_ids is None
        assert every.shards() == (0, 1, 2)


def test_sqlite_allows_sharding_in_one_process_only() -> None:
    assert settings(SHARD_COUNT="2", SHARD_IDS="0,1").shards() == (0, 1)
    with pytest.raises(ConfigError) as refused:
        settings(SHARD_COUNT="2", SHARD_IDS="1")
    message = str(refused.value)
    assert "SQLite" in message and "DATABASE_URL" in message and "\n" not in message


@pytest.mark.parametrize(
    ("values", "named"),
    [
        ({"SHARD_IDS": "0"}, "SHARD_COUNT"),
        ({"SHARD_COUNT": "0"}, "«0»"),
        ({"SHARD_COUNT": "due"}, "«due»"),
        ({"SHARD_COUNT": "-2"}, "«-2»"),
        ({"SHARD_COUNT": "100000"}, "«100000»"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "«2»"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0;1"}, "«0;1»"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,"}, "«0,»"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "-1"}, "«-1»"),
        ({"SHARD_COUNT": "3", "SHARD_IDS": "1,1"}, "«1,1»"),
        ({"SHARD_COUNT": "²"}, "«²»"),  # a digit to str.isdigit, not to int()
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,¹"}, "«0,¹»"),
    ],
)
def test_every_bad_shard_setting_is_one_italian_sentence(values: dict[str, str], named: str) -> None:
    with pytest.raises(ConfigError) as refused:
        settings(DATABASE_URL=PG, **values)
    message = str(refused.value)
    assert named in message and "SHARD_" in message
    assert "\n" not in message and message.endswith(".")
    assert TOKEN not in message and "secret" not in message
