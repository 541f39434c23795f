"""The bot's settings, read once from the environment.

Every problem with a setting becomes a `ConfigError` holding one Italian sentence, so that
``python -m bot`` can print it and exit with status 2 instead of a traceback: the person starting
the bot is a game-night host, not a Python developer.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from bot.storage import MAX_CHIPS
from bot.storage.storage import is_postgres_url
from engine.italian import grouped

__all__ = ["DEFAULT_DATABASE_PATH", "REST_CLIENTS", "ConfigError", "Settings"]

DEFAULT_DATABASE_PATH = Path("data/poker.sqlite3")
_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
REST_CLIENTS = ("lean", "aiohttp")

NO_TOKEN = (
    "Manca DISCORD_TOKEN. Crea un'applicazione su https://discord.com/developers/applications, "
    "apri la scheda «Bot», premi «Reset Token», copia il token e scrivilo nel file .env "
    "nella cartella del progetto come DISCORD_TOKEN=il-tuo-token (vedi .env.example)."
)


class ConfigError(Exception):
    """A setting that cannot be used; the message is one Italian sentence for the host."""


@dataclass(frozen=True)
class Settings:
    """Everything the bot needs to start. The token is kept out of ``repr`` so it never reaches a log."""

    token: str = field(repr=False)
    dev_guild_id: int | None = None
    database_path: Path = DEFAULT_DATABASE_PATH
    database_url: str | None = field(default=None, repr=False)
    """PostgreSQL instead of the SQLite file; kept out of ``repr``: it may hold a password."""
    starting_chips: int = 1000
    daily_bonus: int = 200
    log_level: str = "INFO"
    api_base: str | None = None
    gateway_url: str | None = None
    shard_count: int | None = None
    """Discord's gateway shards in all (``SHARD_COUNT``); None: one process, no sharding (as Discord asks)."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs (``SHARD_IDS``); every shard of `shard_count` when only that is set."""
    tournament_pause: float = 5.0
    """Seconds between a tournament's hands, to read the result (TOURNAMENT_PAUSE; 0 in tests)."""
    rest_client: str = "lean"
    """How REST calls reach Discord (``DISCORD_REST_CLIENT``): ``lean`` (bot/transport.py) or
    ``aiohttp`` (discord.py's own client), kept as a way back should a network in between disagree."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> Settings:
        """Read and validate every setting; raise `ConfigError` on the first bad one."""

        def get(name: str) -> str:
            return environ.get(name, "").strip()

        token = get("DISCORD_TOKEN")
        if not token:
            raise ConfigError(NO_TOKEN)
        if any(ch.isspace() for ch in token):
            raise ConfigError("DISCORD_TOKEN non è valido: un token di Discord non contiene spazi.")
        if not token.isprintable():
            raise ConfigError("DISCORD_TOKEN non è valido: contiene caratteri di controllo.")

        dev_guild_id: int | None = None
        if raw := get("DEV_GUILD_ID"):
            if not (raw.isascii() and raw.isdigit()) or int(raw) == 0:
                raise ConfigError(
                    f"DEV_GUILD_ID deve essere l'ID numerico di un server Discord, non «{raw}» "
                    "(lascialo vuoto per registrare i comandi in tutti i server)."
                )
            dev_guild_id = int(raw)

        starting_chips = _chips(get("STARTING_CHIPS"), "STARTING_CHIPS", default=1000, allow_zero=False)
        daily_bonus = _chips(get("DAILY_BONUS"), "DAILY_BONUS", default=200, allow_zero=True)

        log_level = (get("LOG_LEVEL") or "INFO").upper()
        if log_level not in _LOG_LEVELS:
            raise ConfigError(
                f"LOG_LEVEL deve essere uno tra {', '.join(_LOG_LEVELS)}, non «{get('LOG_LEVEL')}»."
            )

        database_path = Path(get("DATABASE_PATH")) if get("DATABASE_PATH") else DEFAULT_DATABASE_PATH
        database_url = get("DATABASE_URL") or None
        if database_url is not None and not is_postgres_url(database_url):
            raise ConfigError(
                "DATABASE_URL deve essere un indirizzo postgresql://utente:password@host/database "
                "(lascialo vuoto per usare il file SQLite di DATABASE_PATH)."
            )
        if database_url is not None:
            try:
                _port = urlsplit(database_url).port  # never quoted back: the address may hold the password
            except ValueError:
                raise ConfigError(
                    "DATABASE_URL ha una porta che non è un numero da 1 a 65535: "
                    "postgresql://utente:password@host:5432/database."
                ) from None
            host = urlsplit(database_url).hostname
            if host is not None and not _host_ok(host):  # no host: asyncpg's default (local socket)
                raise ConfigError(
                    "DATABASE_URL ha un nome di host non valido (per esempio due punti di fila): "
                    "postgresql://utente:password@host:5432/database."
                )

        api_base = get("DISCORD_API_BASE") or None
        if api_base is not None and not _address_ok(api_base, ("http", "https")):
            raise ConfigError(
                "DISCORD_API_BASE deve essere un indirizzo http:// o https:// con un host (e una porta "
                f"da 1 a 65535), non «{api_base}»."
            )
        gateway_url = get("DISCORD_GATEWAY_URL") or None
        if gateway_url is not None and not _address_ok(gateway_url, ("ws", "wss")):
            raise ConfigError(
                "DISCORD_GATEWAY_URL deve essere un indirizzo ws:// o wss:// con un host (e una porta "
                f"da 1 a 65535), non «{gateway_url}»."
            )

        rest_client = (get("DISCORD_REST_CLIENT") or "lean").lower()
        if rest_client not in REST_CLIENTS:
            raise ConfigError(
                "DISCORD_REST_CLIENT deve essere lean (il predefinito) o aiohttp, "
                f"non «{get('DISCORD_REST_CLIENT')}»."
            )

        postgres = database_url is not None
        shard_count, shard_ids = _shards(get("SHARD_COUNT"), get("SHARD_IDS"), postgres=postgres)

        raw_pause = get("TOURNAMENT_PAUSE") or "5"
        try:
            tournament_pause = float(raw_pause)
        except ValueError:
            tournament_pause = -1.0
        if not 0 <= tournament_pause <= 600:
            raise ConfigError(
                f"TOURNAMENT_PAUSE deve essere un numero di secondi da 0 a 600, non «{raw_pause}»."
            )

        return cls(
            token=token,
            dev_guild_id=dev_guild_id,
            database_path=database_path,
            database_url=database_url,
            starting_chips=starting_chips,
            daily_bonus=daily_bonus,
            log_level=log_level,
            api_base=api_base.rstrip("/") if api_base else None,
            gateway_url=gateway_url,
            shard_count=shard_count,
            shard_ids=shard_ids,
            tournament_pause=tournament_pause,
            rest_client=rest_client,
        )

    @property
    def log_level_number(self) -> int:
        return logging.getLevelNamesMapping().get(self.log_level, logging.INFO)

    @property
    def sharded(self) -> bool:
        """True when this process runs a chosen set of shards (`shard_count` is set)."""
        return self.shard_count is not None

    def shards(self) -> tuple[int, ...]:
        """The shards this process runs (every one when `SHARD_IDS` is empty); () when not sharded."""
        if self.shard_count is None:
            return ()
        return self.shard_ids if self.shard_ids is not None else tuple(range(self.shard_count))


def _host_ok(host: str) -> bool:
    """Whether a host name can be looked up at all: "db..example.com", a label over 63 characters or
    one the IDNA codec refuses would otherwise come out of the driver as a traceback."""
    try:
        host.encode("idna")
    except UnicodeError:
        return False
    return True


def _address_ok(url: str, schemes: tuple[str, ...]) -> bool:
    """An address of one of ``schemes`` with a host that can be looked up and, if given, a port from 1
    to 65535: what aiohttp needs to connect at all."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return False
    host = parts.hostname
    if parts.scheme not in schemes or not host or port == 0:
        return False
    return _host_ok(host)


def _chips(raw: str, name: str, *, default: int, allow_zero: bool) -> int:
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = -1
    if value < 0 or (value == 0 and not allow_zero) or value > MAX_CHIPS:
        least = 0 if allow_zero else 1
        most = grouped(MAX_CHIPS)
        raise ConfigError(f"{name} deve essere un numero intero di fiches, da {least} a {most}, non «{raw}».")
    return value


MAX_SHARDS = 10_000
"""Far above what any bot needs (Discord wants one shard per 1,000 to 2,500 servers): catches typos."""


def _shards(raw_count: str, raw_ids: str, *, postgres: bool) -> tuple[int | None, tuple[int, ...] | None]:
    """``SHARD_COUNT`` and ``SHARD_IDS``: both empty (no sharding), the count alone (every shard in this
    process), or both; several processes, each with some of the shards, need PostgreSQL."""
    if not raw_count:
        if raw_ids:
            raise ConfigError(
                "SHARD_IDS richiede SHARD_COUNT: indica anche quanti shard ha il bot in tutto "
                "(per esempio SHARD_COUNT=2 e SHARD_IDS=0,1)."
            )
        return None, None
    if not (raw_count.isascii() and raw_count.isdigit()) or not 1 <= int(raw_count) <= MAX_SHARDS:
        raise ConfigError(
            f"SHARD_COUNT deve essere il numero di shard del bot, un intero da 1 a {MAX_SHARDS}, "
            f"non «{raw_count}» (lascialo vuoto per un solo processo senza shard)."
        )
    count = int(raw_count)
    if not raw_ids:
        return count, None
    parts = [part.strip() for part in raw_ids.split(",")]
    if not all(part.isascii() and part.isdigit() and int(part) < count for part in parts):
        raise ConfigError(
            f"SHARD_IDS deve essere un elenco di numeri da 0 a {count - 1} separati da virgole "
            f"(per esempio 0,1), non «{raw_ids}»."
        )
    ids = tuple(int(part) for part in parts)
    if len(set(ids)) != len(ids):
        raise ConfigError(f"SHARD_IDS contiene lo stesso shard due volte: «{raw_ids}».")
    if not postgres and len(ids) < count:
        raise ConfigError(
            "Con SQLite il bot gira in un solo processo: SHARD_IDS deve comprendere tutti gli shard "
            f"da 0 a {count - 1}; per dividere gli shard tra più processi usa PostgreSQL (DATABASE_URL)."
        )
    return count, tuple(sorted(ids))
