"""The fake Discord, proven with the real discord.py client before the poker bot exists.

A tiny bot exercises every path the poker cogs will use: a group with a subcommand and typed options, a
button, a select menu, a modal, a DM (open and closed), a deferred reply with a follow-up, a channel
message edited through the channel, a thread, permissions, and a failing command.
"""

from __future__ import annotations

import inspect
import io
import socket
from typing import Any

import discord
import pytest
import yarl
from discord import app_commands
from discord.ext import commands

from fakediscord import (
    LOOPBACK,
    BotFailure,
    CommandHidden,
    FakeDiscord,
    FakeUser,
)

ENGLISH = {"tavolo": "table", "nuovo": "new", "variante": "variant", "cip": "chips"}


class English(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        if locale is discord.Locale.american_english:
            return ENGLISH.get(string.message)
        return None


class RaiseModal(discord.ui.Modal, title="Rilancio"):
    importo: discord.ui.TextInput[RaiseModal] = discord.ui.TextInput(
        label="Importo", custom_id="importo", max_length=6
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Rilancio di {int(self.importo.value)}", ephemeral=True)


class TableView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Siedi", custom_id="siedi", style=discord.ButtonStyle.success)
    async def siedi(self, interaction: discord.Interaction, button: discord.ui.Button[TableView]) -> None:
        await interaction.response.edit_message(content=f"{interaction.user.name} è seduto")

    @discord.ui.button(label="Rilancia", custom_id="rilancia")
    async def rilancia(self, interaction: discord.Interaction, button: discord.ui.Button[TableView]) -> None:
        await interaction.response.send_modal(RaiseModal())

    @discord.ui.button(label="Passa", custom_id="passa")
    async def passa(self, interaction: discord.Interaction, button: discord.ui.Button[TableView]) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"passato da {interaction.user.name}")

    @discord.ui.button(label="Chiuso", custom_id="chiuso", disabled=True)
    async def chiuso(self, interaction: discord.Interaction, button: discord.ui.Button[TableView]) -> None:
        await interaction.response.send_message("mai")

    @discord.ui.select(
        custom_id="puntata",
        placeholder="Puntata",
        max_values=2,
        options=[discord.SelectOption(label=f"{n} fiches", value=str(n)) for n in (10, 20, 50)],
    )
    async def puntata(self, interaction: discord.Interaction, select: discord.ui.Select[TableView]) -> None:
        await interaction.response.send_message(f"Scelti: {', '.join(select.values)}", ephemeral=True)


def make_tavolo() -> app_commands.Group:
    tavolo = app_commands.Group(name="tavolo", description="Il tavolo")

    @tavolo.command(name="nuovo", description="Apri un tavolo")
    @app_commands.choices(
        variante=[
            app_commands.Choice(name="Italiana", value="italiana"),
            app_commands.Choice(name="Texas Hold'em", value="texas"),
        ]
    )
    async def nuovo(
        interaction: discord.Interaction, variante: str, cip: app_commands.Range[int, 1, 100], nota: str = ""
    ) -> None:
        # `cip * 2` proves the option arrived as an int, not as a string.
        content = f"Tavolo {variante}, cip {cip * 2 // 2}, puntata minima {cip * 2}{nota}"
        await interaction.response.send_message(content, view=TableView())

    @tavolo.command(name="carte", description="Ricevi le carte")
    async def carte(interaction: discord.Interaction) -> None:
        try:
            await interaction.user.send("Le tue carte: 7♥ 7♠")
        except discord.Forbidden as exc:
            await interaction.response.send_message(f"Apri i DM ({exc.code})", ephemeral=True)
        else:
            await interaction.response.send_message("Carte inviate in privato", ephemeral=True)

    @tavolo.command(name="lento", description="Ci pensa")
    async def lento(interaction: discord.Interaction, segreto: bool = False) -> None:
        await interaction.response.defer(thinking=True, ephemeral=segreto)
        await interaction.followup.send("Fatto")

    @tavolo.command(name="annuncio", description="Annuncia")
    async def annuncio(interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.abc.Messageable)
        message = await interaction.channel.send("Annuncio")
        await message.edit(content="Annuncio modificato")
        again = await interaction.channel.fetch_message(message.id)
        await interaction.response.send_message(f"ok: {again.content}", ephemeral=True)

    @tavolo.command(name="dove", description="Dove sono")
    async def dove(interaction: discord.Interaction) -> None:
        channel = interaction.channel
        assert isinstance(channel, discord.Thread | discord.TextChannel)
        await interaction.response.send_message(f"{channel.name} {channel.type.name}")

    @tavolo.command(name="profilo", description="Chi è")
    async def profilo(interaction: discord.Interaction, giocatore: discord.User) -> None:
        fetched = await interaction.client.fetch_user(giocatore.id)
        await interaction.response.send_message(f"profilo di {fetched.name}")

    @tavolo.command(name="spille", description="Messaggi appuntati")
    async def spille(interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        try:
            async for _pinned in interaction.channel.pins():
                pass
        except discord.NotFound:
            await interaction.response.send_message("nessuna spilla", ephemeral=True)

    @tavolo.command(name="foto", description="Una foto del tavolo")
    async def foto(interaction: discord.Interaction) -> None:
        picture = discord.File(io.BytesIO(b"\x89PNG fake"), filename="tavolo.png")
        await interaction.response.send_message("Ecco il tavolo", file=picture)

    @tavolo.command(name="rotto", description="Sempre in errore")
    async def rotto(interaction: discord.Interaction) -> None:
        raise RuntimeError("boom")

    return tavolo


def make_accredita() -> app_commands.Command[Any, Any, Any]:
    @app_commands.command(name="accredita", description="Solo per chi gestisce il server")
    @app_commands.default_permissions(manage_guild=True)
    async def accredita(interaction: discord.Interaction, giocatore: discord.Member, fiches: int) -> None:
        allowed = interaction.permissions.manage_guild
        await interaction.response.send_message(
            f"{fiches} a {giocatore.name} (gestore: {allowed})", ephemeral=True
        )

    return accredita


def make_aiuto() -> app_commands.Command[Any, Any, Any]:
    @app_commands.command(name="aiuto", description="Aiuto, anche in privato")
    @app_commands.allowed_contexts(guilds=True, dms=True)
    async def aiuto(interaction: discord.Interaction) -> None:
        where = "privato" if interaction.guild_id is None else "server"
        await interaction.response.send_message(f"aiuto in {where} per {interaction.user.name}")

    return aiuto


class TinyBot(commands.Bot):
    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.guild_id = guild_id

    async def setup_hook(self) -> None:
        await self.tree.set_translator(English())
        guild = discord.Object(self.guild_id)
        self.tree.add_command(make_tavolo(), guild=guild)
        self.tree.add_command(make_accredita(), guild=guild)
        self.tree.add_command(make_aiuto())
        await self.tree.sync(guild=guild)
        await self.tree.sync()


@pytest.fixture
async def tiny(fake_discord: FakeDiscord, run_client: Any) -> TinyBot:
    bot = TinyBot(fake_discord.guild_id)
    await run_client(bot)
    return bot


# ---------------------------------------------------------------------- the seams in discord.py itself


def test_discord_py_redirection_points_are_unchanged() -> None:
    """If this fails, discord.py moved its endpoints: the fake and bot.client.apply_endpoints must follow."""
    assert discord.__version__ == "2.7.1"
    assert discord.http.Route.BASE == "https://discord.com/api/v10"
    assert yarl.URL("wss://gateway.discord.gg/") == discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    # Both are read as class attributes at use time, so patching the class redirects every request.
    assert "url = self.BASE + self.path" in inspect.getsource(discord.http.Route.__init__)
    assert "gateway or cls.DEFAULT_GATEWAY" in inspect.getsource(discord.gateway.DiscordWebSocket.from_client)


def test_route_follows_a_patched_base(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discord.http.Route, "BASE", "http://127.0.0.1:1/api/v10")
    assert (
        discord.http.Route("GET", "/users/{user_id}", user_id=5).url == "http://127.0.0.1:1/api/v10/users/5"
    )


@pytest.mark.parametrize("host", ["0.0.0.0", "localhost", "::1", "192.168.1.10", ""])
def test_fake_refuses_any_host_but_loopback(host: str) -> None:
    with pytest.raises(ValueError, match=r"127\.0\.0\.1"):
        FakeDiscord(host=host)


async def test_fake_listens_only_on_127_0_0_1(fake_discord: FakeDiscord) -> None:
    assert fake_discord.listening_addresses == {LOOPBACK}
    # 127.0.0.2 is loopback too: a server bound to 0.0.0.0 would answer there; ours must not.
    with socket.socket() as probe:
        probe.settimeout(1)
        assert probe.connect_ex(("127.0.0.2", fake_discord.port)) != 0
    with socket.create_connection((LOOPBACK, fake_discord.port), timeout=1):
        pass


# ---------------------------------------------------------------------- start-up


async def test_login_gateway_and_command_sync(fake_discord: FakeDiscord, tiny: TinyBot) -> None:
    guild = tiny.get_guild(fake_discord.guild_id)
    assert guild is not None
    assert sorted(c.name for c in guild.text_channels) == ["generale", "poker", "sala-vip"]
    assert [(t.name, t.parent_id) for t in guild.threads] == [("partita", fake_discord.channel("poker").id)]
    assert guild.member_count == len(fake_discord.users) + 1  # the members and the bot
    assert guild.me is not None and guild.me.guild_permissions.manage_messages
    assert tiny.user is not None and tiny.user.id == fake_discord.bot_user.id
    assert ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands") in fake_discord.rest_calls
    assert ("GET", "/gateway/bot") not in fake_discord.rest_calls
    tavolo = fake_discord.command("tavolo")
    assert tavolo["name_localizations"] == {"en-US": "table"}
    nuovo = next(o for o in tavolo["options"] if o["name"] == "nuovo")
    assert nuovo["name_localizations"] == {"en-US": "new"}
    assert [o["name_localizations"] for o in nuovo["options"][:2]] == [
        {"en-US": "variant"},
        {"en-US": "chips"},
    ]
    assert fake_discord.command("accredita")["default_member_permissions"] == str(1 << 5)


# ---------------------------------------------------------------------- slash commands and options


async def test_slash_subcommand_with_typed_options(fake_discord: FakeDiscord, tiny: TinyBot) -> None:
    alice = fake_discord.user("alice")
    r = await fake_discord.slash(alice, "tavolo nuovo", channel="poker", variante="italiana", cip=10)
    assert r.callback_type == 4
    assert r.content == "Tavolo italiana, cip 10, puntata minima 20"
    assert not r.ephemeral
    assert r.message is not None and fake_discord.messages("poker") == [r.message]
    assert [c.get("label") or c.get("placeholder") for c in r.components] == [
        "Siedi",
        "Rilancia",
        "Passa",
        "Chiuso",
        "Puntata",
    ]
    sent = next(e for e in fake_discord.interactions.values() if e is r.record).payload["data"]
    assert sent["guild_id"] == str(fake_discord.guild_id)
    assert sent["options"] == [
        {
            "name": "nuovo",
            "type": 1,
            "options": [
                {"name": "variante", "type": 3, "value": "italiana"},
                {"name": "cip", "type": 4, "value": 10},
            ],
        }
    ]


async def test_choice_given_by_its_display_name_sends_its_value(
    fake_discord: FakeDiscord, tiny: TinyBot
) -> None:
    r = await fake_discord.slash(fake_discord.user("bob"), "tavolo nuovo", variante="Texas Hold'em", cip=5)
    assert r.content.startswith("Tavolo texas, cip 5")


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"variante": "omaha", "cip": 10}, ValueError),  # not a choice
        ({"variante": "italiana", "cip": 0}, ValueError),  # below min_value
        ({"variante": "italiana", "cip": "10"}, TypeError),  # a string for an integer
        ({"variante": "italiana"}, TypeError),  # required option missing
        ({"variante": "italiana", "cip": 10, "buio": 2}, TypeError),  # no such option
    ],
)
async def test_options_discord_would_refuse_are_never_sent(
    fake_discord: FakeDiscord, tiny: TinyBot, options: dict[str, Any], error: type[Exception]
) -> None:
    with pytest.raises(error):
        await fake_discord.slash(fake_discord.user("alice"), "tavolo nuovo", options=options)
    assert fake_discord.interactions == {}


async def test_unknown_command_path_is_refused(fake_discord: FakeDiscord, tiny: TinyBot) -> None:
    alice = fake_discord.user("alice")
    with pytest.raises(CommandHidden, match="no subcommand"):
        await fake_discord.slash(alice, "tavolo vecchio")
    with pytest.raises(CommandHidden, match="not synced"):
        await fake_discord.slash(alice, "saldo")


# ---------------------------------------------------------------------- components and modals


async def test_button_updates_its_message(fake_discord: FakeDiscord, tiny: TinyBot) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table = await fake_discord.slash(alice, "tavolo nuovo", variante="italiana", cip=10)
    r = await fake_discord.click(bob, table, label="Siedi")
    assert r.callback_type == 7
    assert r.message is table.message
    assert [m.content for m in fake_discord.messages("poker")] == ["bob è seduto"]
    assert fake_discord.public_texts()[-1].startswith("bob è seduto\nSiedi")
    assert any(t.startswith("Tavolo italiana") for t in fake_discord.public_texts())


async def test_deferred_component_then_edit_original(fake_discord: FakeDiscord, tiny: TinyBot) -> None:
    table = await fake_discord.slash(fake_discord.user("alice"), "tavolo nuovo", variante="italiana", cip=10)
    r = await fake_discord.click(fake_discord.user("carol"), table, custom_id="passa")
    assert r.callback_type == 6 and r.deferred
    assert r.content == "passato da carol"
    assert table.message is not None and table.message.content == "passato da carol"
    assert (
        "PATCH",
        "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
    ) in fake_discord.rest_calls


async def test_disabled_button_cannot_be_pressed(fake_discord: FakeDiscord, tiny: TinyBot) -> None:
    table = await fake_discord.slash(fake_discord.user("alice"), "tavolo nuovo", variante="italiana", cip=10)
    with pytest.raises(AssertionError, match="disabled"):
        await fake_discord.click(fake_discord.user("bob"), table, label="Chiuso")


async def test_select_menu_sends_values(fake_discord: FakeDiscord, tiny: TinyBot) -> None:
    alice = fake_discord.user("alice")
    table = await fake_discord.slash(alice, "tavolo nuovo", variante="italiana", cip=10)
    r = await fake_discord.select(alice, table, "puntata", ["10", "50"])
    assert (r.content, r.ephemeral) == ("Scelti: 10, 50", True)
    assert "Scelti" not in "\n".join(fake_discord.public_texts())
    assert fake_discord.messages("poker") == [table.message]
    assert fake_discord.messages("poker", include_ephemeral=True)[-1] is r.message
    with pytest.raises(ValueError, match="not all among"):
        await fake_discord.select(alice, table, "puntata", ["30"])
    with pytest.raises(ValueError, match=r"takes 1\.\.2 values"):
        await fake_discord.select(alice, table, "puntata", ["10", "20", "50"])


async def test_modal_opens_and_submits(fake_discord: FakeDiscord, tiny: TinyBot) -> None:
    alice = fake_discord.user("alice")
    table = await fake_discord.slash(alice, "tavolo nuovo", variante="italiana", cip=10)
    r = await fake_discord.click(alice, table, label="Rilancia")
    assert r.callback_type == 9
    assert r.modal is not None and r.modal["title"] == "Rilancio"
    with pytest.raises(AssertionError, match="shown to alice"):
        await fake_discord.submit_modal(fake_discord.user("bob"), r, {"importo": "40"})
    with pytest.raises(ValueError, match="required"):
        await fake_discord.submit_modal(alice, r, {})
    with pytest.raises(TypeError, match="no fields"):
        await fake_discord.submit_modal(alice, r, {"importo": "40", "nota": "x"})
    done = await fake_discord.submit_modal(alice, r, {"importo": "40"})
    assert (done.content, done.ephemeral) == ("Rilancio di 40", True)
    assert done.record.payload["data"]["components"][0]["components"][0]["value"] == "40"


async def test_ephemeral_message_of_someone_else_cannot_be_clicked(
    fake_discord: FakeDiscord, tiny: TinyBot
) -> None:
    alice = fake_discord.user("alice")
    r = await fake_discord.slash(alice, "tavolo lento", segreto=True)
    assert r.message is not None and r.ephemeral
    r.message.payload["components"] = [
        {"type": 1, "components": [{"type": 2, "label": "x", "custom_id": "x"}]}
    ]
    with pytest.raises(AssertionError, match="ephemeral for someone else"):
        await fake_discord.click(fake_discord.user("bob"), r, label="x")


# ---------------------------------------------------------------------- DMs, deferrals, channel messages


async def test_dm_is_private_and_closed_dms_answer_50007(fake_discord: FakeDiscord, tiny: TinyBot) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    r = await fake_discord.slash(alice, "tavolo carte")
    assert (r.content, r.ephemeral) == ("Carte inviate in privato", True)
    assert [m.content for m in fake_discord.dms(alice)] == ["Le tue carte: 7♥ 7♠"]
    assert r.posted == fake_discord.dms(alice)
    assert not any("7♥" in t for t in fake_discord.public_texts())
    fake_discord.close_dms(bob)
    refused = await fake_discord.slash(bob, "tavolo carte")
    assert refused.content == "Apri i DM (50007)"
    assert fake_discord.dms(bob) == []
    refused_path = f"/api/v10/channels/{fake_discord.dm_channel(bob).id}/messages"
    assert ("POST", refused_path, 403) in fake_discord.rest_log


async def test_deferred_reply_becomes_the_follow_up(fake_discord: FakeDiscord, tiny: TinyBot) -> None:
    r = await fake_discord.slash(fake_discord.user("alice"), "tavolo lento")
    assert r.callback_type == 5 and r.deferred and not r.ephemeral
    assert r.content == "Fatto"
    assert r.followups == [r.message]
    assert [m.content for m in fake_discord.messages("poker")] == ["Fatto"]
    secret = await fake_discord.slash(fake_discord.user("bob"), "tavolo lento", segreto=True)
    assert (secret.content, secret.ephemeral) == ("Fatto", True)
    assert len(fake_discord.messages("poker")) == 1


async def test_channel_message_edited_through_the_channel(fake_discord: FakeDiscord, tiny: TinyBot) -> None:
    r = await fake_discord.slash(fake_discord.user("alice"), "tavolo annuncio")
    assert r.content == "ok: Annuncio modificato"
    assert [m.content for m in fake_discord.messages("poker")] == ["Annuncio modificato"]
    assert [m.content for m in r.posted] == ["Annuncio modificato"]
    assert fake_discord.public_texts() == ["Annuncio", "Annuncio modificato"]
    calls = fake_discord.rest_calls
    assert calls.count(("PATCH", "/channels/{channel_id}/messages/{message_id}")) == 1
    assert calls.count(("GET", "/channels/{channel_id}/messages/{message_id}")) == 1


async def test_file_in_a_response_arrives_as_an_attachment(fake_discord: FakeDiscord, tiny: TinyBot) -> None:
    r = await fake_discord.slash(fake_discord.user("alice"), "tavolo foto")
    assert r.content == "Ecco il tavolo"
    assert r.message is not None
    assert [a["filename"] for a in r.message.payload["attachments"]] == ["tavolo.png"]


async def test_command_in_a_thread(fake_discord: FakeDiscord, tiny: TinyBot) -> None:
    r = await fake_discord.slash(fake_discord.user("alice"), "tavolo dove", channel="partita")
    assert r.content == "partita public_thread"
    assert [m.content for m in fake_discord.messages("partita")] == [r.content]
    assert fake_discord.messages("poker") == []


async def test_user_option_and_fetch_user(fake_discord: FakeDiscord, tiny: TinyBot) -> None:
    r = await fake_discord.slash(
        fake_discord.user("alice"), "tavolo profilo", giocatore=fake_discord.user("bob")
    )
    assert r.content == "profilo di bob"
    assert ("GET", "/users/{user_id}") in fake_discord.rest_calls


async def test_default_member_permissions_hide_admin_commands(
    fake_discord: FakeDiscord, tiny: TinyBot
) -> None:
    alice = fake_discord.user("alice")
    with pytest.raises(CommandHidden, match="does not show /accredita"):
        await fake_discord.slash(alice, "accredita", giocatore=alice, fiches=100)
    admin = fake_discord.user("admin", manage_guild=True)
    r = await fake_discord.slash(admin, "accredita", giocatore=alice, fiches=100)
    assert r.content == "100 a alice (gestore: True)"


async def test_global_command_in_a_dm(fake_discord: FakeDiscord, tiny: TinyBot) -> None:
    alice = fake_discord.user("alice")
    r = await fake_discord.slash(alice, "aiuto", channel="dm")
    assert r.content == "aiuto in privato per alice"
    assert [m.content for m in fake_discord.dms(alice)] == [r.content]
    assert fake_discord.public_texts() == []
    with pytest.raises(CommandHidden, match="not available in DMs"):
        await fake_discord.slash(alice, "tavolo dove", channel="dm")
    in_guild = await fake_discord.slash(alice, "aiuto")
    assert in_guild.content == "aiuto in server per alice"


# ---------------------------------------------------------------------- failures become test failures


async def test_error_in_a_command_fails_fast_with_its_cause(fake_discord: FakeDiscord, tiny: TinyBot) -> None:
    with pytest.raises(BotFailure, match="boom"):
        await fake_discord.slash(fake_discord.user("alice"), "tavolo rotto")


async def test_unimplemented_route_answers_404_and_is_recorded(
    fake_discord: FakeDiscord, tiny: TinyBot
) -> None:
    r = await fake_discord.slash(fake_discord.user("alice"), "tavolo spille")
    assert r.content == "nessuna spilla"
    [(method, path)] = fake_discord.unhandled
    assert method == "GET"
    assert path.startswith(f"/api/v10/channels/{fake_discord.channel('poker').id}/")
    assert "pins" in path
    fake_discord.unhandled.clear()  # expected here; left in place it would fail the test at teardown


async def test_crashed_connection_fails_the_next_wait(fake_discord: FakeDiscord, tiny: TinyBot) -> None:
    await fake_discord.drop_gateway(4004)  # "authentication failed": discord.py gives up
    with pytest.raises(BotFailure, match="connect\\(\\) task crashed"):
        await fake_discord.wait_for(lambda: False, "nothing")


async def test_resumable_drop_resumes_and_keeps_working(fake_discord: FakeDiscord, tiny: TinyBot) -> None:
    await fake_discord.drop_gateway(4000)
    await fake_discord.wait_for(lambda: fake_discord.resumes, "the bot to resume")
    r = await fake_discord.slash(fake_discord.user("alice"), "tavolo dove")
    assert r.content == "poker text"
    assert len(fake_discord.identifies) == 1


async def test_a_new_client_finds_the_messages_and_views_of_the_old_one(
    fake_discord: FakeDiscord, run_client: Any
) -> None:
    first = await run_client(TinyBot(fake_discord.guild_id))
    table = await fake_discord.slash(fake_discord.user("alice"), "tavolo nuovo", variante="italiana", cip=10)
    await first.close()
    second = TinyBot(fake_discord.guild_id)
    await run_client(second)
    second.add_view(TableView())  # persistent view, as a restarted bot re-registers them
    r = await fake_discord.click(fake_discord.user("bob"), table, label="Siedi")
    assert r.content == "bob è seduto"
    assert len(fake_discord.identifies) == 2


async def test_a_late_member_is_announced_only_with_the_members_intent(
    fake_discord: FakeDiscord, run_client: Any
) -> None:
    intents = discord.Intents.default()
    intents.members = True
    client = discord.Client(intents=intents, guild_ready_timeout=0.05)
    await run_client(client)
    guild = client.get_guild(fake_discord.guild_id)
    assert guild is not None and guild.get_member(fake_discord.user("alice").id) is not None
    zoe = fake_discord.user("zoe")
    await fake_discord.wait_for(lambda: guild.get_member(zoe.id), "GUILD_MEMBER_ADD for zoe")
    assert guild.member_count == len(fake_discord.users) + 1


def test_fake_user_permissions_carry_manage_guild() -> None:
    fake = FakeDiscord()
    admin: FakeUser = fake.user("admin", manage_guild=True)
    assert admin.member_payload()["permissions"] == str(admin.permissions)
    assert int(admin.member_payload()["permissions"]) & (1 << 5)
    assert not int(fake.user("alice").member_payload()["permissions"]) & (1 << 5)
