"""The bot's own table settings: defaults, validation, and the stored form beside the engine's options."""

from __future__ import annotations

import pytest

from bot.errors import UserError
from bot.table_settings import BOT_KEY, TableSettings, split_stored_options
from engine.options import TableOptions


def test_defaults_call_after_fifteen_seconds_and_pause_one_to_three() -> None:
    settings = TableSettings()
    assert (settings.ping_after, settings.computer_pause_min, settings.computer_pause_max) == (15, 1.0, 3.0)
    assert settings.max_computers is None


def test_stored_options_split_into_engine_options_and_settings() -> None:
    options = TableOptions.from_dict({"variant": "texas", "cip": 20})
    stored = {**options.to_dict(), BOT_KEY: TableSettings(ping_after=None, max_computers=2).to_dict()}
    engine_part, settings = split_stored_options(stored)
    assert TableOptions.from_dict(engine_part) == options
    assert settings == TableSettings(ping_after=None, max_computers=2)


def test_a_row_without_settings_gets_the_defaults_and_unknown_keys_are_ignored() -> None:
    options = TableOptions.from_dict({"variant": "italiana"}).to_dict()
    assert split_stored_options(options)[1] == TableSettings()
    assert TableSettings.from_dict({"ping_after": 0, "from_a_newer_bot": 1}) == TableSettings(ping_after=0)


@pytest.mark.parametrize(
    "bad",
    [
        {"ping_after": -1},
        {"ping_after": 3601},
        {"computer_pause_min": 2.0, "computer_pause_max": 1.0},
        {"max_computers": 11},
    ],
)
def test_out_of_range_settings_are_refused_in_italian(bad: dict[str, object]) -> None:
    with pytest.raises(UserError):
        TableSettings.from_dict(bad)
