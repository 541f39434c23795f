"""The fake refuses what Discord refuses: a late or second answer, oversized payloads, stale tokens, edits
of deleted messages; it keeps attachments' bytes and the mentions a message may ping.

Most checks speak raw HTTP to the fake (the exact status, code and `errors` path); the ones about
discord.py's own behaviour (files, deletions, mentions) use a real discord.py client.
"""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from fakediscord import FakeDiscord, InteractionRecord

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4


class Clock:
    """A clock the test moves by hand, for the fake's deadline and token lifetime."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def http(fake_discord: FakeDiscord) -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(
        base_url=fake_discord.api_base.removesuffix("/api/v10") + "/"
    ) as session:
        yield session


@pytest.fixture
def clock(fake_discord: FakeDiscord) -> Clock:
    clock = Clock()
    fake_discord.clock = clock
    return clock


async def call(http: aiohttp.ClientSession, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    async with http.request(method, "api/v10" + path, json=body) as response:
        text = await response.text()
        return response.status, (json.loads(text) if text else None)


def callback_path(rec: InteractionRecord, *, with_response: bool = True) -> str:
    """The callback route, asking for the answer's message back as discord.py does by default."""
    return f"/interactions/{rec.id}/{rec.token}/callback" + ("?with_response=1" if with_response else "")


def webhook_path(fake: FakeDiscord, rec: InteractionRecord) -> str:
    return f"/webhooks/{fake.app_id}/{rec.token}"


def take_violations(fake: FakeDiscord) -> list[str]:
    """The violations so far, cleared: these tests break the rules on purpose."""
    found, fake.violations[:] = list(fake.violations), []
    return found


# ---------------------------------------------------------------------- the answer deadline


async def test_an_answer_after_three_seconds_is_an_unknown_interaction(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, clock: Clock
) -> None:
    alice = fake_discord.user("alice")
    rec = fake_discord.open_interaction(alice, "poker")
    clock.now += 3.01
    status, body = await call(http, "POST", callback_path(rec), {"type": 4, "data": {"content": "tardi"}})
    assert (status, body["code"], body["message"]) == (404, 10062, "Unknown interaction")
    assert rec.callback_type is None
    assert fake_discord.messages("poker", include_ephemeral=True) == []
    [violation] = take_violations(fake_discord)
    assert violation.startswith("deadline:")
    # Nothing was acknowledged, so there is nothing to follow up either.
    status, body = await call(http, "POST", webhook_path(fake_discord, rec), {"content": "dopo"})
    assert (status, body["code"]) == (404, 10015)


async def test_an_answer_within_three_seconds_is_accepted(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, clock: Clock
) -> None:
    rec = fake_discord.open_interaction(fake_discord.user("alice"), "poker")
    clock.now += 2.99
    status, _ = await call(http, "POST", callback_path(rec), {"type": 4, "data": {"content": "in tempo"}})
    assert status == 200
    assert [m.content for m in fake_discord.messages("poker")] == ["in tempo"]


async def test_a_callback_returns_its_message_only_when_asked(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    plain = fake_discord.open_interaction(fake_discord.user("alice"), "poker")
    status, body = await call(
        http, "POST", callback_path(plain, with_response=False), {"type": 4, "data": {"content": "a"}}
    )
    assert (status, body) == (204, None)
    asked = fake_discord.open_interaction(fake_discord.user("alice"), "poker")
    status, body = await call(http, "POST", callback_path(asked), {"type": 4, "data": {"content": "b"}})
    first, second = fake_discord.messages("poker")
    assert (first.content, second.content) == ("a", "b")
    assert status == 200 and body["resource"]["message"]["id"] == str(second.id)


async def test_the_deadline_can_be_switched_off(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, clock: Clock
) -> None:
    fake_discord.rules.deadline = None
    rec = fake_discord.open_interaction(fake_discord.user("alice"), "poker")
    clock.now += 60
    status, _ = await call(http, "POST", callback_path(rec), {"type": 5})
    assert status == 200 and fake_discord.violations == []


async def test_follow_ups_work_for_fifteen_minutes_then_the_token_is_invalid(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, clock: Clock
) -> None:
    rec = fake_discord.open_interaction(fake_discord.user("alice"), "poker")
    assert (await call(http, "POST", callback_path(rec), {"type": 5}))[0] == 200
    clock.now += 15 * 60 - 1
    status, _ = await call(http, "POST", webhook_path(fake_discord, rec), {"content": "quasi scaduto"})
    assert status == 200
    clock.now += 2
    status, body = await call(http, "POST", webhook_path(fake_discord, rec), {"content": "scaduto"})
    assert (status, body["code"]) == (401, 50027)
    status, body = await call(
        http, "PATCH", webhook_path(fake_discord, rec) + "/messages/@original", {"content": "x"}
    )
    assert (status, body["code"]) == (401, 50027)
    assert [v.split(":")[0] for v in take_violations(fake_discord)] == ["token lifetime"] * 2
    # The channel API keeps working on the same message: that is how a long game edits its table.
    [msg] = fake_discord.messages("poker")
    status, _ = await call(http, "PATCH", f"/channels/{msg.channel_id}/messages/{msg.id}", {"content": "ok"})
    assert status == 200 and msg.content == "ok"


# ---------------------------------------------------------------------- one answer


async def test_a_second_initial_response_is_already_acknowledged(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    rec = fake_discord.open_interaction(fake_discord.user("alice"), "poker")
    assert (await call(http, "POST", callback_path(rec), {"type": 4, "data": {"content": "uno"}}))[0] == 200
    status, body = await call(http, "POST", callback_path(rec), {"type": 4, "data": {"content": "due"}})
    assert (status, body["code"]) == (400, 40060)
    assert [m.content for m in fake_discord.messages("poker")] == ["uno"]
    assert [v.split(":")[0] for v in take_violations(fake_discord)] == ["one answer"]


async def test_one_answer_can_be_switched_off(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    fake_discord.rules.one_answer = False
    rec = fake_discord.open_interaction(fake_discord.user("alice"), "poker")
    for text in ("uno", "due"):
        assert (await call(http, "POST", callback_path(rec), {"type": 4, "data": {"content": text}}))[
            0
        ] == 200
    assert [m.content for m in fake_discord.messages("poker")] == ["uno", "due"]


async def test_a_private_follow_up_on_a_public_defer_is_shown_publicly_and_recorded(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    rec = fake_discord.open_interaction(fake_discord.user("alice"), "poker")
    await call(http, "POST", callback_path(rec), {"type": 5})
    status, _ = await call(http, "POST", webhook_path(fake_discord, rec), {"content": "rifiuto", "flags": 64})
    assert status == 200  # Discord accepts it...
    assert fake_discord.public_texts() == ["rifiuto"]  # ...and the whole channel reads the "private" text
    [violation] = take_violations(fake_discord)
    assert violation.startswith("private follow-up on a public defer:")


# ---------------------------------------------------------------------- payload limits


def button(n: int, **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": f"b{n}", "custom_id": f"c{n}"} | extra


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def embed(**fields: Any) -> dict[str, Any]:
    return {"type": "rich"} | fields


def options(n: int) -> list[dict[str, str]]:
    return [{"label": str(i), "value": str(i)} for i in range(n)]


# (name, body at the limit, body one past it, the offending path Discord names)
LIMITS: list[tuple[str, dict[str, Any], dict[str, Any], str]] = [
    ("content", {"content": "x" * 2000}, {"content": "x" * 2001}, "content"),
    ("embeds", {"embeds": [embed(title="t")] * 10}, {"embeds": [embed(title="t")] * 11}, "embeds"),
    ("title", {"embeds": [embed(title="t" * 256)]}, {"embeds": [embed(title="t" * 257)]}, "embeds.0.title"),
    (
        "description",
        {"embeds": [embed(description="d" * 4096)]},
        {"embeds": [embed(description="d" * 4097)]},
        "embeds.0.description",
    ),
    (
        "fields",
        {"embeds": [embed(fields=[{"name": "n", "value": "v"}] * 25)]},
        {"embeds": [embed(fields=[{"name": "n", "value": "v"}] * 26)]},
        "embeds.0.fields",
    ),
    (
        "field name",
        {"embeds": [embed(fields=[{"name": "n" * 256, "value": "v"}])]},
        {"embeds": [embed(fields=[{"name": "n" * 257, "value": "v"}])]},
        "embeds.0.fields.0.name",
    ),
    (
        "field value",
        {"embeds": [embed(fields=[{"name": "n", "value": "v" * 1024}])]},
        {"embeds": [embed(fields=[{"name": "n", "value": "v" * 1025}])]},
        "embeds.0.fields.0.value",
    ),
    (
        "footer",
        {"embeds": [embed(footer={"text": "f" * 2048})]},
        {"embeds": [embed(footer={"text": "f" * 2049})]},
        "embeds.0.footer.text",
    ),
    (
        "author",
        {"embeds": [embed(author={"name": "a" * 256})]},
        {"embeds": [embed(author={"name": "a" * 257})]},
        "embeds.0.author.name",
    ),
    (
        "embed total",
        {"embeds": [embed(description="d" * 3000), embed(description="d" * 3000)]},
        {"embeds": [embed(description="d" * 3000), embed(description="d" * 3001)]},
        "embeds",
    ),
    (
        "action rows",
        {"content": "c", "components": [row(button(i)) for i in range(5)]},
        {"content": "c", "components": [row(button(i)) for i in range(6)]},
        "components",
    ),
    (
        "buttons per row",
        {"content": "c", "components": [row(*[button(i) for i in range(5)])]},
        {"content": "c", "components": [row(*[button(i) for i in range(6)])]},
        "components.0.components",
    ),
    (
        "custom_id",
        {"content": "c", "components": [row(button(0, custom_id="i" * 100))]},
        {"content": "c", "components": [row(button(0, custom_id="i" * 101))]},
        "components.0.components.0.custom_id",
    ),
    (
        "button label",
        {"content": "c", "components": [row(button(0, label="l" * 80))]},
        {"content": "c", "components": [row(button(0, label="l" * 81))]},
        "components.0.components.0.label",
    ),
    (
        "select options",
        {"content": "c", "components": [row({"type": 3, "custom_id": "s", "options": options(25)})]},
        {"content": "c", "components": [row({"type": 3, "custom_id": "s", "options": options(26)})]},
        "components.0.components.0.options",
    ),
    (
        "select max_values",
        {
            "content": "c",
            "components": [row({"type": 3, "custom_id": "s", "options": options(3), "max_values": 3})],
        },
        {
            "content": "c",
            "components": [row({"type": 3, "custom_id": "s", "options": options(3), "max_values": 4})],
        },
        "components.0.components.0.max_values",
    ),
    (
        "blank field value",
        {"embeds": [{"fields": [{"name": "n", "value": "v"}]}]},
        {"embeds": [{"fields": [{"name": "n", "value": " "}]}]},
        "embeds.0.fields.0.value",
    ),
]


@pytest.mark.parametrize(("name", "at_limit", "past_limit", "path"), LIMITS, ids=[x[0] for x in LIMITS])
async def test_message_limits_are_refused_with_invalid_form_body(
    fake_discord: FakeDiscord,
    http: aiohttp.ClientSession,
    name: str,
    at_limit: dict[str, Any],
    past_limit: dict[str, Any],
    path: str,
) -> None:
    channel = fake_discord.channel("poker").id
    status, _ = await call(http, "POST", f"/channels/{channel}/messages", at_limit)
    assert status == 200
    status, body = await call(http, "POST", f"/channels/{channel}/messages", past_limit)
    assert (status, body["code"], body["message"]) == (400, 50035, "Invalid Form Body")
    node = body["errors"]
    for key in path.split("."):
        node = node[key]
    assert node["_errors"][0]["code"] in {
        "BASE_TYPE_MAX_LENGTH",
        "MAX_EMBED_SIZE_EXCEEDED",
        "BASE_TYPE_BAD_INT",
        "BASE_TYPE_REQUIRED",
    }
    # The same limits hold for an edit, an interaction response (under `data`) and a follow-up.
    [msg] = fake_discord.messages("poker")
    status, _ = await call(http, "PATCH", f"/channels/{channel}/messages/{msg.id}", past_limit)
    assert status == 400
    rec = fake_discord.open_interaction(fake_discord.user("alice"), "poker")
    status, body = await call(http, "POST", callback_path(rec), {"type": 4, "data": past_limit})
    assert status == 400 and "data" in body["errors"]
    await call(http, "POST", callback_path(rec), {"type": 5})
    status, _ = await call(http, "POST", webhook_path(fake_discord, rec), past_limit)
    assert status == 400
    assert len(take_violations(fake_discord)) == 4
    assert len(fake_discord.messages("poker", include_ephemeral=True)) == 2  # the first post, the defer


async def test_payload_limits_can_be_switched_off(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake_discord.rules.payload_limits = False
    channel = fake_discord.channel("poker").id
    status, _ = await call(http, "POST", f"/channels/{channel}/messages", {"content": "x" * 2001})
    assert status == 200 and fake_discord.violations == []


async def test_an_empty_message_is_refused(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    status, body = await call(http, "POST", f"/channels/{fake_discord.channel('poker').id}/messages", {})
    assert (status, body["code"]) == (400, 50006)
    take_violations(fake_discord)


@pytest.mark.parametrize(
    ("modal", "path"),
    [
        ({"title": "t" * 46}, "data.title"),
        ({"components": [row({"type": 4, "custom_id": "i", "label": "l" * 46, "style": 1})]}, None),
        (
            {"components": [row({"type": 4, "custom_id": "i", "label": "l", "style": 1})] * 6},
            "data.components",
        ),
        (
            {
                "components": [
                    row({"type": 4, "custom_id": "i", "label": "l", "style": 1, "placeholder": "p" * 101})
                ]
            },
            "data.components.0.components.0.placeholder",
        ),
    ],
    ids=["title", "text input label", "six fields", "text input placeholder"],
)
async def test_modal_limits(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, modal: dict[str, Any], path: str | None
) -> None:
    data = {"title": "Rilancio", "custom_id": "m", "components": []} | modal
    rec = fake_discord.open_interaction(fake_discord.user("alice"), "poker")
    status, body = await call(http, "POST", callback_path(rec), {"type": 9, "data": data})
    assert (status, body["code"]) == (400, 50035)
    if path is None:
        assert body["errors"]["data"]["components"]["0"]["components"]["0"]["label"]["_errors"]
    else:
        node = body["errors"]
        for key in path.split("."):
            node = node[key]
        assert node["_errors"]
    take_violations(fake_discord)
    ok = {
        "title": "t" * 45,
        "custom_id": "m",
        "components": [row({"type": 4, "custom_id": "i", "label": "l" * 45})],
    }
    assert (await call(http, "POST", callback_path(rec), {"type": 9, "data": ok}))[0] == 200


# ---------------------------------------------------------------------- attachments


def multipart(payload: dict[str, Any], files: list[tuple[str, bytes]]) -> aiohttp.FormData:
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps(payload), content_type="application/json")
    for i, (name, data) in enumerate(files):
        form.add_field(f"files[{i}]", data, filename=name, content_type="image/png")
    return form


async def test_more_than_ten_attachments_are_refused(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    path = f"api/v10/channels/{fake_discord.channel('poker').id}/messages"
    files = [(f"f{i}.png", PNG) for i in range(11)]
    async with http.post(path, data=multipart({"content": "x"}, files)) as response:
        body = await response.json()
        assert (response.status, body["code"]) == (400, 50035)
        assert "attachments" in body["errors"]
    async with http.post(path, data=multipart({"content": "x"}, files[:10])) as response:
        assert response.status == 200
    [msg] = fake_discord.messages("poker")
    assert [a.filename for a in msg.attachments] == [f"f{i}.png" for i in range(10)]
    take_violations(fake_discord)


async def test_a_file_over_the_upload_limit_is_too_large(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    path = f"api/v10/channels/{fake_discord.channel('poker').id}/messages"
    limit = fake_discord.rules.attachment_size_limit
    assert limit == 25 * 1024 * 1024
    async with http.post(path, data=multipart({"content": "x"}, [("big.png", bytes(limit + 1))])) as response:
        assert (response.status, (await response.json())["code"]) == (413, 40005)
    async with http.post(path, data=multipart({"content": "x"}, [("ok.png", bytes(limit))])) as response:
        assert response.status == 200
    assert [a.size for m in fake_discord.messages("poker") for a in m.attachments] == [limit]
    [violation] = take_violations(fake_discord)
    assert "big.png" in violation


async def test_files_in_an_interaction_response_and_a_follow_up(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    rec = fake_discord.open_interaction(fake_discord.user("alice"), "poker")
    form = multipart({"type": 4, "data": {"content": "tavolo", "attachments": [{"id": 0}]}}, [("t.png", PNG)])
    async with http.post("api/v10" + callback_path(rec), data=form) as response:
        assert response.status == 200
    form = multipart({"content": "di nuovo"}, [("u.png", PNG[:10])])
    async with http.post("api/v10" + webhook_path(fake_discord, rec), data=form) as response:
        assert response.status == 200
    first, second = fake_discord.messages("poker")
    assert [(a.filename, a.data) for a in first.attachments] == [("t.png", PNG)]
    assert [(a.filename, a.data) for a in second.attachments] == [("u.png", PNG[:10])]


async def test_discord_py_files_round_trip_and_edits_keep_or_drop_them(
    fake_discord: FakeDiscord, run_client: Any
) -> None:
    client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    await run_client(client)
    channel = client.get_channel(fake_discord.channel("poker").id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("tavolo", file=discord.File(io.BytesIO(PNG), "tavolo.png"))
    [stored] = fake_discord.messages("poker")
    assert [(a.filename, a.content_type, a.data) for a in stored.attachments] == [
        ("tavolo.png", "image/png", PNG)
    ]
    assert await sent.attachments[0].read() == PNG  # discord.py downloads it from the fake
    # A new picture replacing the old one: discord.py lists only the new file.
    edited = await sent.edit(attachments=[discord.File(io.BytesIO(b"nuovo"), "mano.png")])
    assert [a.data for a in stored.attachments] == [b"nuovo"]
    # Keeping the current one and adding a second.
    edited = await edited.edit(attachments=[*edited.attachments, discord.File(io.BytesIO(b"2"), "due.png")])
    assert [a.filename for a in stored.attachments] == ["mano.png", "due.png"]
    await edited.edit(attachments=[])
    assert stored.attachments == []


# ---------------------------------------------------------------------- deletions and mentions


class Watcher(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.deleted: list[int] = []

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        self.deleted.append(payload.message_id)


async def test_deleting_a_message_announces_it_and_later_edits_are_unknown(
    fake_discord: FakeDiscord, run_client: Any
) -> None:
    client = Watcher()
    await run_client(client)
    channel = client.get_channel(fake_discord.channel("poker").id)
    assert isinstance(channel, discord.TextChannel)
    mine = await channel.send("mio")
    theirs = await channel.send("tavolo")
    await mine.delete()
    await fake_discord.wait_for(
        lambda: client.deleted == [mine.id], "MESSAGE_DELETE for the bot's own delete"
    )
    # A moderator deletes the table message from under the bot.
    [stored] = fake_discord.messages("poker")
    await fake_discord.delete_message(stored, by=fake_discord.user("moderatore", manage_guild=True))
    await fake_discord.wait_for(
        lambda: client.deleted == [mine.id, theirs.id], "MESSAGE_DELETE by a moderator"
    )
    assert stored.deleted_by == "moderatore" and fake_discord.messages("poker") == []
    with pytest.raises(discord.NotFound) as refused:
        await theirs.edit(content="aggiornato")
    assert refused.value.code == 10008


async def test_allowed_mentions_are_recorded_and_decide_who_is_pinged(
    fake_discord: FakeDiscord, run_client: Any
) -> None:
    client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    await run_client(client)
    channel = client.get_channel(fake_discord.channel("poker").id)
    assert isinstance(channel, discord.TextChannel)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    text = f"<@{alice.id}> tocca a te; <@{bob.id}> aspetta"
    await channel.send(text, allowed_mentions=discord.AllowedMentions(users=[discord.Object(alice.id)]))
    await channel.send(text)  # no allowed_mentions: Discord's default pings everyone mentioned
    quiet = await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
    one, everyone, nobody = fake_discord.messages("poker")
    assert one.notified == [alice.id] and one.allowed_mentions[0] is not None
    assert one.allowed_mentions[0]["users"] == [alice.id]
    assert everyone.notified == [alice.id, bob.id] and everyone.allowed_mentions == [None]
    assert nobody.notified == [] and nobody.mentioned == [alice.id, bob.id]
    # An edit that adds a mention pings nobody, as on Discord.
    await quiet.edit(content=f"<@{alice.id}>", allowed_mentions=discord.AllowedMentions(users=True))
    assert nobody.notified == [] and len(nobody.allowed_mentions) == 2


async def test_components_v2_messages_count_components_not_rows(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    channel = fake_discord.channel("poker").id
    texts = [{"type": 10, "content": f"riga {i}"} for i in range(6)]
    status, _ = await call(
        http, "POST", f"/channels/{channel}/messages", {"flags": 1 << 15, "components": texts}
    )
    assert status == 200  # six top-level components: fine without action rows
    [msg] = fake_discord.messages("poker")
    # An edit does not repeat the flag: the message's own flags decide.
    status, _ = await call(
        http, "PATCH", f"/channels/{channel}/messages/{msg.id}", {"components": texts[:5] * 2}
    )
    assert status == 200
    many = [{"type": 10, "content": str(i)} for i in range(41)]
    status, body = await call(http, "PATCH", f"/channels/{channel}/messages/{msg.id}", {"components": many})
    assert (status, body["code"]) == (400, 50035)
    take_violations(fake_discord)
