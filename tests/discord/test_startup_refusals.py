"""Start-up refusals past the settings' first checks: a .env an editor saved in another encoding, a
database newer than the bot, malformed addresses, a token with a control character, and the
migration tool's bad sources. README "Settings": one sentence that names the setting, exit status 2,
never a traceback, never a secret."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings
from bot.storage.db import load_migrations
from bot.storage.migrate_to_postgres import main as migrate_main
from fakediscord import FakeDiscord

SECRET = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.secret-token-value-for-tests"
REPO = Path(__file__).resolve().parents[2]


def _run_bot_sync(cwd: Path, **env: str) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=cwd,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(REPO), **env},
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    return done.returncode, done.stdout + done.stderr


@pytest.mark.parametrize("encoding", ["latin-1", "utf-16"])
def test_dotenv_not_in_utf8_is_one_sentence_and_exit_2(tmp_path: Path, encoding: str) -> None:
    # An Italian host writes a comment with an accent and saves .env as Latin-1 (or Notepad's UTF-16).
    text = f"# il server è quello di Marco\nDISCORD_TOKEN={SECRET}\n"
    (tmp_path / ".env").write_bytes(text.encode(encoding))
    code, output = _run_bot_sync(tmp_path)
    assert "Traceback" not in output, output
    assert code == 2 and ".env" in output
    assert SECRET not in output


def test_token_with_a_control_character_is_refused_by_the_settings() -> None:
    # Past the settings it would fail at login inside aiohttp ("Forbidden control character").
    with pytest.raises(ConfigError, match="DISCORD_TOKEN"):
        Settings.from_env({"DISCORD_TOKEN": "MTIz\x01NDU2.Gabc.secret"})


@pytest.mark.parametrize(
    "api_base",
    [
        "http://discord..com/api/v10",  # the IDNA codec refuses the host (a traceback from aiohttp)
        "http://",  # no host: "cannot reach Discord", without naming the setting
        "http://127.0.0.1:99999/api/v10",  # a port out of range: the same
    ],
)
def test_malformed_api_base_is_one_sentence_naming_it_and_exit_2(tmp_path: Path, api_base: str) -> None:
    code, output = _run_bot_sync(
        tmp_path,
        DISCORD_TOKEN=SECRET,
        DATABASE_PATH=str(tmp_path / "poker.sqlite3"),
        DISCORD_API_BASE=api_base,
    )
    assert "Traceback" not in output, output
    assert code == 2 and "DISCORD_API_BASE" in output, output


def test_migrate_refuses_a_file_that_is_not_a_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    garbage = tmp_path / "poker.sqlite3"
    garbage.write_bytes(b"this is not a SQLite database, it is a text file\n" * 200)
    code = migrate_main(["--sqlite", str(garbage), "--postgres", "postgresql://u:pw@127.0.0.1:1/db"])
    assert code == 1
    assert "Refused" in capsys.readouterr().err


def test_migrate_refuses_a_file_newer_than_the_tool(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "poker.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {len(load_migrations('sqlite')) + 1}")
    code = migrate_main(["--sqlite", str(path), "--postgres", "postgresql://u:pw@127.0.0.1:1/db"])
    assert code == 1
    assert "Refused" in capsys.readouterr().err


def _env(**values: str) -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(REPO), **values}


async def _run_bot(cwd: Path, env: dict[str, str]) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=cwd, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout=30)
    except TimeoutError:
        process.terminate()
        out, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode() + err.decode()


def _against(fake: FakeDiscord, tmp_path: Path, **values: str) -> dict[str, str]:
    settings = {
        "DISCORD_TOKEN": SECRET,
        "DATABASE_PATH": str(tmp_path / "poker.sqlite3"),
        "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
    }
    return _env(**(settings | values))


async def test_database_newer_than_the_bot_is_one_sentence_and_exit_2(
    tmp_path: Path, fake_discord: FakeDiscord
) -> None:
    # The host upgraded the bot, then went back to the older version: the file's schema is newer.
    path = tmp_path / "poker.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {len(load_migrations('sqlite')) + 1}")
    code, output = await _run_bot(tmp_path, _against(fake_discord, tmp_path))
    assert "Traceback" not in output, output
    assert code == 2 and "DATABASE_PATH" in output


async def test_database_url_with_a_malformed_host_is_one_sentence_and_exit_2(
    tmp_path: Path, fake_discord: FakeDiscord
) -> None:
    # A typo in the host ("db..example.com") makes the idna codec raise UnicodeError inside asyncpg.
    url = "postgresql://tavolo:secretpw@db..example.com:5432/tavolo_verde"
    code, output = await _run_bot(tmp_path, _against(fake_discord, tmp_path, DATABASE_URL=url))
    assert "Traceback" not in output, output
    assert code == 2 and "DATABASE_URL" in output
    assert "secretpw" not in output


@pytest.mark.parametrize("gateway", ["ws://", "ws://127.0.0.1:99999/gateway", "ws://gateway..example/"])
async def test_malformed_gateway_url_is_one_sentence_and_exit_2(
    tmp_path: Path, fake_discord: FakeDiscord, gateway: str
) -> None:
    code, output = await _run_bot(tmp_path, _against(fake_discord, tmp_path, DISCORD_GATEWAY_URL=gateway))
    assert "Traceback" not in output, output
    assert code == 2 and "DISCORD_GATEWAY_URL" in output
