"""Real PostgreSQL and Redis servers for the tests, started in temporary directories.

PostgreSQL comes from Debian's ``postgresql`` package (binaries under
``/usr/lib/postgresql/*/bin``, not on PATH): ``initdb`` + ``pg_ctl`` into a temporary
directory, listening on a free loopback port. ``initdb`` refuses to run as root, so as root
it runs as the ``postgres`` user through ``runuser``. Redis is ``redis-server --port P
--save ''``. Without the programs or the Python drivers (the ``[cluster]`` extra) the tests
that need them skip saying how to install them, unless ``TAKTIK_REQUIRE_CLUSTER=1`` (set in
``.ci/run``), where that is a failure.
"""

from __future__ import annotations

import glob
import importlib.util
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

INSTALL_HINT = ("install them with: apt-get install postgresql redis-server && pip install -e '.[cluster]' "
                "(TAKTIK_REQUIRE_CLUSTER=1 turns this skip into a failure)")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def missing() -> str | None:
    """What is missing to run PostgreSQL and Redis here, or None."""
    absent = [name for name in ("asyncpg", "redis") if importlib.util.find_spec(name) is None]
    if not _pg_bin():
        absent.append("postgresql (initdb)")
    if shutil.which("redis-server") is None:
        absent.append("redis-server")
    return ", ".join(absent) or None


def require_cluster() -> None:
    """Skip (or, with TAKTIK_REQUIRE_CLUSTER=1, fail) when PostgreSQL or Redis cannot run here."""
    absent = missing()
    if absent is None:
        return
    message = f"PostgreSQL/Redis tests need {absent}; {INSTALL_HINT}"
    if os.environ.get("TAKTIK_REQUIRE_CLUSTER") == "1":
        pytest.fail(message)
    pytest.skip(message)


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


def _as_postgres(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


class Postgres:
    """A throw-away PostgreSQL cluster on a free loopback port (trust authentication, user ``taktik``)."""

    def __init__(self) -> None:
        bin_dir = _pg_bin()
        assert bin_dir is not None
        self.bin = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="taktik-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
        self._run(["initdb", "-D", str(self.data), "-A", "trust", "-U", "taktik", "--no-sync", "-E", "UTF8"])
        self._databases = 0

    def _run(self, command: list[str]) -> None:
        full = _as_postgres([str(self.bin / command[0]), *command[1:]])
        done = subprocess.run(full, capture_output=True, text=True, cwd=self.root, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}")

    def start(self) -> None:
        options = (f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c synchronous_commit=on -c max_connections=200")
        self._run(["pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.root / "log"), "-w", "start"])

    def stop(self) -> None:
        self._run(["pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop"])

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://taktik@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        self._databases += 1
        name = f"t{self._databases}_{os.getpid()}"
        self._run(["createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "taktik", name])
        return self.url(name)

    def destroy(self) -> None:
        try:
            self.stop()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


class Redis:
    """``redis-server`` on a free loopback port, no persistence; `restart` keeps the port."""

    def __init__(self) -> None:
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn:
                    conn.sendall(b"PING\r\n")
                    if conn.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()
