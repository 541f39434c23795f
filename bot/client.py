"""The bot: a `commands.Bot` that owns the storage and the table registry.

Start-up order matters: the database is opened and migrated, this process's tables are claimed
(sharding, or any PostgreSQL database: `Storage.claim_tables`), interrupted hands are cancelled
(`Storage.recover`), the open tables are rebuilt from what is left, and only then are the cogs
loaded and the commands synced, so no command can reach a table that is not restored yet.

With ``SHARD_COUNT`` (and ``SHARD_IDS``) the bot is a `ShardedPokerBot`: an `AutoShardedBot` over
those gateway shards that claims, recovers, restores and serves only the tables of the servers on
them; several such processes share one PostgreSQL database (README: "Several processes").
"""

from __future__ import annotations

import logging
from typing import Any

import discord
import yarl
from discord.ext import commands

from bot.config import Settings
from bot.errors import StartupError
from bot.i18n import EnglishTranslator
from bot.logging_setup import quiet_chatty_loggers
from bot.sessions import Sessions
from bot.storage import DATABASE_ERRORS, SchemaTooNew, ShardBusy, Storage
from bot.tables import TableRegistry
from bot.tournaments import Tournaments
from bot.transport import install as install_transport
from bot.tree import PokerTree

__all__ = [
    "DISCORD_API_BASE",
    "DISCORD_GATEWAY",
    "EXTENSIONS",
    "PokerBot",
    "ShardedPokerBot",
    "apply_endpoints",
    "create_bot",
]

log = logging.getLogger(__name__)

EXTENSIONS: tuple[str, ...] = (
    "cogs.tavolo",
    "cogs.fiches",
    "cogs.gioco",
    "cogs.mano",
    "cogs.statistiche",
    "cogs.avvisi",
    "cogs.torneo",
)
"""The cogs loaded at start-up, in order."""

DISCORD_API_BASE = "https://discord.com/api/v10"
DISCORD_GATEWAY = yarl.URL("wss://gateway.discord.gg/")


def apply_endpoints(api_base: str | None, gateway_url: str | None) -> None:
    """Point discord.py's REST client and gateway at other addresses (a proxy, or the test fake).

    discord.py reads these two class attributes when it builds each request and each gateway
    connection; `None` restores Discord's own address, so one process can switch back and forth.
    """
    discord.http.Route.BASE = api_base or DISCORD_API_BASE
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = (
        yarl.URL(gateway_url) if gateway_url else DISCORD_GATEWAY
    )


def intents() -> discord.Intents:
    """Only the guilds intent: slash commands, buttons and DMs need no privileged intent."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class PokerBot(commands.Bot):
    """The poker bot. `storage` and `tables` exist once `login()` has run `setup_hook`."""

    storage: Storage
    tables: TableRegistry
    sessions: Sessions
    tournaments: Tournaments

    def __init__(self, settings: Settings, **kwargs: Any) -> None:
        # The bot never joins voice: skip discord.py's warnings about the missing voice libraries.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        kwargs.setdefault("command_prefix", commands.when_mentioned)
        kwargs.setdefault("intents", intents())
        kwargs.setdefault("tree_cls", PokerTree)
        kwargs.setdefault("help_command", None)
        # Players are named by mention in every message; nobody should be pinged by a poker table.
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(**kwargs)
        self.settings = settings
        self._storage: Storage | None = None
        self._tables: TableRegistry | None = None
        self._sessions: Sessions | None = None
        self._tournaments: Tournaments | None = None
        self._shut_down = False
        apply_endpoints(settings.api_base, settings.gateway_url)
        quiet_chatty_loggers()  # hole cards travel in request bodies: no DEBUG line may show them

    async def setup_hook(self) -> None:
        settings = self.settings
        if settings.rest_client == "lean":
            install_transport(self.http)  # discord.py made its session at login: REST calls go through ours
        try:
            self._storage = self.storage = await Storage.open(
                settings.database_url or settings.database_path,
                starting_chips=settings.starting_chips,
                daily_bonus=settings.daily_bonus,
                hold=True,  # a SQLite file is this process's before its migrations run
            )
        except ShardBusy as exc:  # a SQLite file another bot process holds
            raise StartupError(
                f"{exc} Ferma l'altro processo, oppure usa PostgreSQL (DATABASE_URL) per averne più d'uno."
            ) from exc
        except SchemaTooNew as exc:
            raise StartupError(
                f"Il database {self._database_named()} è di una versione più nuova del bot (schema "
                f"{exc.version}, questo bot arriva alla {exc.latest}): aggiorna il bot, oppure rimetti il "
                "backup fatto prima dell'aggiornamento."
            ) from exc
        except DATABASE_ERRORS as exc:
            raise StartupError(f"Non riesco ad aprire il database {self._database_named()}: {exc}.") from exc
        shards = await self._claim_tables()
        cancelled = await self.storage.recover(**shards)
        if cancelled:
            log.warning(
                "Cancelled the interrupted hands of %d table(s); stacks are back to their start",
                len(cancelled),
            )
        self._tables = self.tables = TableRegistry(self.storage)
        restored = await self.tables.restore(**shards)
        log.info("Restored %d open table(s)", restored)
        self._sessions = self.sessions = Sessions(self)
        await self.sessions.restore()
        self._tournaments = self.tournaments = Tournaments(self)
        await self.tournaments.restore()
        await self.sessions.end_stale_messages()  # every table is back: a note finds its own
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self.sync_commands()

    def _database_named(self) -> str:
        """The database for an operator's sentence: never the URL itself, which may hold the password."""
        if self.settings.database_url:
            return "PostgreSQL (DATABASE_URL)"
        return f"«{self.settings.database_path}» (DATABASE_PATH)"

    async def _claim_tables(self) -> dict[str, Any]:
        """Take this process's shards in the database and own their tables; return the selection
        (`shard_ids`, `shard_count`) for `recover` and `restore`, empty for every table.

        On PostgreSQL the bot always claims, one shard of one when it is not sharded, so that a second
        process started by mistake on the same database is refused at start-up and a bot that ran
        sharded before takes its tables back. A SQLite file serves one process (SHARD_IDS must name
        every shard): the process locks the file (a second one is refused), there is nothing to
        claim, and its tables keep no owner.
        """
        count = self.settings.shard_count
        shards = self.settings.shards()
        selection = self.shard_selection()
        if self.storage.dialect != "postgresql":
            return selection  # the file is this process's since `Storage.open(..., hold=True)`
        claim = (shards, count) if count is not None else ((0,), 1)
        try:
            claimed = await self.storage.claim_tables(*claim)
        except ShardBusy as exc:
            raise StartupError(
                f"{exc} Controlla SHARD_IDS: ogni processo deve avere shard diversi "
                "(e lo stesso SHARD_COUNT)."
            ) from exc
        log.info("Claimed shard(s) %s of %d: %d open table(s)", list(claim[0]), claim[1], len(claimed))
        return selection

    def shard_selection(self) -> dict[str, Any]:
        """``shard_ids``/``shard_count`` for the storage's start-up reads (`recover`, `open_tables`,
        `live_tournaments`): this process's shards, or nothing (every server) when not sharded."""
        count = self.settings.shard_count
        return {} if count is None else {"shard_ids": self.settings.shards(), "shard_count": count}

    def serves_guild(self, guild_id: int) -> bool:
        """True when the server's gateway shard is one of this process's (always, when not sharded):
        an interaction from another server belongs to another process and is refused (bot/tree.py)."""
        count = self.settings.shard_count
        return count is None or (guild_id >> 22) % count in self.settings.shards()

    async def sync_commands(self) -> list[discord.app_commands.AppCommand]:
        """Register the slash commands: in the development server at once, otherwise everywhere.

        Global commands can take a while to appear in every client; a guild sync is immediate,
        which is what a host testing the bot wants.
        """
        await self.tree.set_translator(EnglishTranslator())
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            try:
                synced = await self.tree.sync(guild=guild)
            except discord.Forbidden as exc:  # a server the bot is not in (or not with this scope)
                raise StartupError(
                    f"DEV_GUILD_ID={self.settings.dev_guild_id}: il bot non è in quel server o non può "
                    "registrarvi i comandi (invitalo con lo scope applications.commands), oppure "
                    "lascia vuoto DEV_GUILD_ID."
                ) from exc
            log.info("Synced %d command(s) to server %s", len(synced), self.settings.dev_guild_id)
        else:
            synced = await self.tree.sync()
            log.info("Synced %d global command(s)", len(synced))
        return synced

    async def on_ready(self) -> None:
        log.info("Connected as %s (id %s) to %d server(s)", self.user, self.application_id, len(self.guilds))

    async def close(self) -> None:
        """Stop cleanly: finish what runs under the table locks, cancel running hands, close the database.

        A hand still running cannot be finished without its players, so it is cancelled as the
        recovery rule says: every stack goes back to where it was when the hand started.
        """
        if self._shut_down:
            await super().close()
            return
        self._shut_down = True
        try:
            if self._tournaments is not None:
                await self._tournaments.close()
            if self._tables is not None:
                await self._tables.shutdown()
            if self._sessions is not None:
                await self._sessions.close()
        finally:
            try:
                await super().close()
            finally:
                if self._storage is not None:
                    await self._storage.close()
                    log.info("Database closed")


class ShardedPokerBot(PokerBot, commands.AutoShardedBot):
    """The poker bot over the gateway shards ``SHARD_IDS`` of ``SHARD_COUNT`` (all of them when only the
    count is set): one gateway connection per shard, and only their servers' tables."""

    def __init__(self, settings: Settings, **kwargs: Any) -> None:
        if settings.shard_count is None:
            raise ValueError("ShardedPokerBot needs settings.shard_count")
        kwargs.setdefault("shard_count", settings.shard_count)
        kwargs.setdefault("shard_ids", list(settings.shards()))
        super().__init__(settings, **kwargs)


def create_bot(settings: Settings, **kwargs: Any) -> PokerBot:
    """The bot the settings ask for: sharded with ``SHARD_COUNT``, otherwise one plain connection."""
    if settings.shard_count is not None:
        return ShardedPokerBot(settings, **kwargs)
    return PokerBot(settings, **kwargs)
