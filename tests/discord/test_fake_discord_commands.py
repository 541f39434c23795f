"""The fake refuses application commands Discord would refuse, and autocomplete answers Discord would refuse.

Real Discord answers 400 "Invalid Form Body" (code 50035) to a bulk overwrite (`PUT …/commands`) that
breaks one registration rule, and registers none of it: a command or an English string that breaks a
rule must fail the tests, not only production. Each case below sends the same command once as Discord
takes it and once broken, so the test pins both sides of the rule. The fake records the refusal as a
violation (`fake.violations`), which fails an end-to-end test at teardown.

An autocomplete (interaction type 4) is answered only with callback type 8, at most 25 choices whose
names and values are 1-100 characters (`fake.autocomplete` sends one; the raw HTTP here checks the
answer's refusals).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from fakediscord import FakeDiscord

PUT, POST = "PUT", "POST"


@pytest.fixture
async def http(fake_discord: FakeDiscord) -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(
        base_url=fake_discord.api_base.removesuffix("/api/v10") + "/"
    ) as session:
        yield session


async def call(http: aiohttp.ClientSession, method: str, path: str, body: Any) -> tuple[int, Any]:
    async with http.request(method, "api/v10" + path, json=body) as response:
        text = await response.text()
        return response.status, (json.loads(text) if text else None)


def commands_path(fake: FakeDiscord) -> str:
    return f"/applications/{fake.app_id}/guilds/{fake.guild_id}/commands"


def take_violations(fake: FakeDiscord) -> list[str]:
    """The violations so far, cleared: these tests break the rules on purpose."""
    found, fake.violations[:] = list(fake.violations), []
    return found


def command(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "type": 1,
        "name": "tavolo",
        "description": "Un tavolo da poker in questo canale",
        "name_localizations": {"en-US": "table", "en-GB": "table"},
        "description_localizations": {"en-US": "A poker table", "en-GB": "A poker table"},
        "options": [],
    }
    return body | changes


def option(name: str, *, required: bool = False, **extra: Any) -> dict[str, Any]:
    return {"type": 3, "name": name, "description": "Quante fiches", "required": required} | extra


def choices(n: int) -> list[dict[str, str]]:
    return [{"name": f"scelta {i}", "value": f"v{i}"} for i in range(n)]


def sized(last_localized: int) -> dict[str, Any]:
    """A command of exactly 4000 characters as Discord counts them (names, descriptions and choice
    values, each with its longest localization, not their sum), then one more if the last choice's
    localized name is `last_localized` = 46 characters long."""
    many = [{"name": f"{i:02d}" + "n" * 98, "value": "v" * 100} for i in range(19)]  # 19 * 200
    last = {"name": "n" * 45, "value": "v" * 46, "name_localizations": {"en-US": "e" * last_localized}}
    scelta = option("scelta", description="s", choices=[*many, last])  # 6 + 1 + 3800 + 91
    english = {"en-US": "tv", "en-GB": "tv"}
    return command(name="tv", name_localizations=english, description="d" * 100, options=[scelta])  # 102


# (what the rule is, a command Discord takes, the same command broken, the offending path)
CASES = [
    ("lowercase name", command(name="tavolo"), command(name="Tavolo"), "0.name"),
    (
        "lowercase localized name",
        command(name_localizations={"en-US": "table"}),
        command(name_localizations={"en-US": "Table"}),
        "0.name_localizations.en-US",
    ),
    (
        "no space in a name",
        command(name_localizations={"en-US": "poker-table"}),
        command(name_localizations={"en-US": "poker table"}),
        "0.name_localizations.en-US",
    ),
    (
        "names in Devanagari, Thai and Japanese",
        command(name_localizations={"hi": "मेज़", "th": "โต๊ะ", "ja": "テーブル"}),
        command(name_localizations={"hi": "मेज़।"}),  # the danda is punctuation, not Devanagari script
        "0.name_localizations.hi",
    ),
    ("name of 32 characters", command(name="t" * 32), command(name="t" * 33), "0.name"),
    ("description of 100", command(description="d" * 100), command(description="d" * 101), "0.description"),
    ("a description", command(description="d"), command(description=""), "0.description"),
    (
        "localized description of 100",
        command(description_localizations={"en-US": "x" * 100}),
        command(description_localizations={"en-US": "x" * 101}),
        "0.description_localizations.en-US",
    ),
    (
        "Discord's locales",
        command(name_localizations={"en-GB": "table"}),
        command(name_localizations={"en": "table"}),
        "0.name_localizations.en",
    ),
    (
        "25 options",
        command(options=[option(f"o{i}") for i in range(25)]),
        command(options=[option(f"o{i}") for i in range(26)]),
        "0.options",
    ),
    (
        "required options first",
        command(options=[option("importo", required=True), option("cip")]),
        command(options=[option("cip"), option("importo", required=True)]),
        "0.options.1.required",
    ),
    (
        "25 choices",
        command(options=[option("variante", choices=choices(25))]),
        command(options=[option("variante", choices=choices(26))]),
        "0.options.0.choices",
    ),
    (
        "an option's name",
        command(options=[option("buy_in")]),
        command(options=[option("buy in")]),
        "0.options.0.name",
    ),
    (
        "sibling names differ",
        command(options=[option("cip"), option("ping")]),
        command(options=[option("cip"), option("cip")]),
        "0.options",
    ),
    ("4000 characters in a command", sized(45), sized(46), "0"),
]


@pytest.mark.parametrize(("rule", "taken", "broken", "path"), CASES, ids=[c[0] for c in CASES])
async def test_the_fake_refuses_a_bulk_overwrite_discord_would_refuse(
    fake_discord: FakeDiscord,
    http: aiohttp.ClientSession,
    rule: str,
    taken: dict[str, Any],
    broken: dict[str, Any],
    path: str,
) -> None:
    status, body = await call(http, PUT, commands_path(fake_discord), [taken])
    assert status == 200, f"Discord takes {rule}: {body}"
    assert not take_violations(fake_discord)
    status, body = await call(http, PUT, commands_path(fake_discord), [broken])
    assert (status, body["code"], body["message"]) == (400, 50035, "Invalid Form Body"), rule
    node = body["errors"]
    for key in path.split("."):
        node = node[key]
    assert node["_errors"], f"{rule}: Discord names the field {path}"
    assert fake_discord.guild_commands[fake_discord.guild_id].keys() == {taken["name"]}, (
        "a refused overwrite changes nothing"
    )
    (violation,) = take_violations(fake_discord)
    assert violation.startswith("registration rules:") and path in violation


async def test_a_single_command_create_is_checked_too(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    status, body = await call(http, POST, commands_path(fake_discord), command(name="Tavolo"))
    assert (status, body["code"]) == (400, 50035) and "name" in body["errors"]
    assert fake_discord.guild_commands.get(fake_discord.guild_id, {}) == {}
    assert [v.split(":")[0] for v in take_violations(fake_discord)] == ["registration rules"]


async def test_the_registration_rules_can_be_switched_off(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    """On by default, as every strict rule a correct bot never trips; off, the fake takes any list."""
    assert fake_discord.rules.registration_rules is True
    fake_discord.rules.registration_rules = False
    status, _body = await call(http, PUT, commands_path(fake_discord), [command(name="Tavolo")])
    assert status == 200 and not fake_discord.violations


# ---------------------------------------------------------------------- autocomplete answers


def autocomplete_answer(n: int = 1, **choice: Any) -> dict[str, Any]:
    return {"type": 8, "data": {"choices": [{"name": "🤖 Zia Pina", "value": "🤖 Zia Pina"} | choice] * n}}


@pytest.mark.parametrize(
    ("answer", "path"),
    [
        (autocomplete_answer(26), "data.choices"),
        (autocomplete_answer(name="n" * 101), "data.choices.0.name"),
        (autocomplete_answer(value="v" * 101), "data.choices.0.value"),
        (autocomplete_answer(name=""), "data.choices.0.name"),
    ],
    ids=["26 choices", "a 101-character name", "a 101-character value", "an empty name"],
)
async def test_an_autocomplete_answer_discord_would_refuse(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, answer: dict[str, Any], path: str
) -> None:
    rec = fake_discord.open_interaction(fake_discord.user("alice"), "poker", kind=4)
    callback = f"/interactions/{rec.id}/{rec.token}/callback"
    status, body = await call(http, POST, callback, answer)
    assert (status, body["code"]) == (400, 50035)
    node = body["errors"]
    for key in path.split("."):
        node = node[key]
    assert node["_errors"]
    assert rec.refused == 400 and rec.callback_type is None
    (violation,) = take_violations(fake_discord)
    assert violation.startswith("payload limits:") and path in violation
    status, _body = await call(http, POST, callback, autocomplete_answer(25))
    assert status == 204 and rec.callback_type == 8, "25 choices of 1-100 characters are taken"


async def test_an_autocomplete_is_answered_with_choices_and_nothing_else(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    alice = fake_discord.user("alice")
    rec = fake_discord.open_interaction(alice, "poker", kind=4)
    status, _body = await call(
        http, POST, f"/interactions/{rec.id}/{rec.token}/callback", {"type": 4, "data": {"content": "no"}}
    )
    assert status == 400 and rec.callback_type is None
    slash = fake_discord.open_interaction(alice, "poker")
    status, _body = await call(
        http, POST, f"/interactions/{slash.id}/{slash.token}/callback", autocomplete_answer()
    )
    assert status == 400 and slash.callback_type is None
