"""DATABASE_URL selects PostgreSQL, otherwise the SQLite file at DATABASE_PATH; the URL never shows."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, Settings
from bot.storage import Storage
from tests.storage.conftest import Database

URL = "postgresql://tavolo:s3cret@db.example:5432/tavolo_verde"


def test_database_url_is_read_and_kept_out_of_repr() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "abc", "DATABASE_URL": f" {URL} "})
    assert settings.database_url == URL
    assert "s3cret" not in repr(settings)
    assert Settings.from_env({"DISCORD_TOKEN": "abc", "DATABASE_URL": ""}).database_url is None


@pytest.mark.parametrize("bad", ["mysql://x/y", "data/poker.sqlite3", "http://db"])
def test_a_database_url_that_is_not_postgresql_is_refused(bad: str) -> None:
    with pytest.raises(ConfigError, match="DATABASE_URL deve essere un indirizzo postgresql://"):
        Settings.from_env({"DISCORD_TOKEN": "abc", "DATABASE_URL": bad})


async def test_the_target_picks_the_backend(db: Database) -> None:
    async with await Storage.open(db.target) as store:
        assert store.dialect == db.dialect
