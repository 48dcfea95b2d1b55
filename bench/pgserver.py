"""A throwaway PostgreSQL server for the benches and the tests: Debian's binaries, started here.

``initdb`` makes a cluster in a fresh folder under the system's temporary directory and
``pg_ctl`` starts it on a free loopback port, its unix socket in the same folder, with
``trust`` authentication for the one user it makes (nothing listens beyond loopback).
PostgreSQL refuses to run as root, and the tests may run as root (CI does): then the
cluster belongs to the ``postgres`` user Debian's package makes, and its commands run
through ``runuser``.  Its durability settings are PostgreSQL's defaults (``fsync=on``,
``synchronous_commit=on``): what the tests check is what a deployment gets.

Without the binaries a test is skipped on a workstation and fails on CI (``CI=true``),
so a CI image that lost PostgreSQL cannot pass silently (``scripts/install-test-tools``
installs it).
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

from bench.serving import stat_cpu_seconds

#: The user the cluster is made for (its superuser): every test database belongs to it.
USER = "vtt"


def binaries() -> Path | None:
    """The folder of the newest PostgreSQL's server binaries Debian installed, if any."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[4])
    )
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


def missing_reason() -> str | None:
    """Why no server can be started here, or None when one can."""
    if binaries() is None:
        return "PostgreSQL is not installed: apt-get install postgresql"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no postgres user to run PostgreSQL as"
    return None


def on_ci() -> bool:
    """Whether the tests run on CI, where a missing tool fails instead of skipping."""
    return os.environ.get("CI", "").lower() in ("true", "1")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """One running cluster; :meth:`new_database` makes an empty database on it."""

    def __init__(self) -> None:
        """Make and start the cluster (blocking: a second or two)."""
        bin_dir = binaries()
        assert bin_dir is not None, missing_reason()
        self._bin = bin_dir
        self.folder = Path(tempfile.mkdtemp(prefix="vtt-pg-"))
        self.data = self.folder / "data"
        self.port = _free_port()
        self._as: list[str] = []
        if os.geteuid() == 0:
            # PostgreSQL will not run as root: the folder becomes the postgres user's.
            self._as = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self.folder, "postgres", "postgres")
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            USER,
            "--auth=trust",
            "--no-sync",  # the cluster's files are throwaway; commits still fsync
            "-E",
            "UTF8",
            "--locale=C",
        )
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 "
            f"-c unix_socket_directories={self.folder} -c max_connections=200"
        )
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.folder / "server.log"),
            "-o",
            options,
            "-w",
            "start",
        )

    def _run(self, program: str, *args: str) -> None:
        done = subprocess.run(
            [*self._as, str(self._bin / program), *args],
            capture_output=True,
            text=True,
            timeout=60,
        )
        if done.returncode != 0:
            raise RuntimeError(f"{program} failed: {done.stdout}{done.stderr}")

    def dsn(self, database: str = "postgres") -> str:
        """The URL of ``database`` on this server (over loopback TCP)."""
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A new, empty database's URL (each test gets its own)."""
        import psycopg

        name = "t_" + secrets.token_hex(6)
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.dsn(name)

    def cpu_seconds(self) -> float:
        """User plus system CPU time the server's processes have used so far (Linux):
        the postmaster's own, its reaped children's (a backend that ended, counted in
        the postmaster's ``cutime``/``cstime``) and its living children's."""
        postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        own = Path(f"/proc/{postmaster}/stat").read_text()
        total = stat_cpu_seconds(own, children_too=True)
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                text = stat.read_text()
            except OSError:  # the process ended meanwhile
                continue
            if int(text.rsplit(")", 1)[1].split()[1]) == postmaster:  # its parent
                total += stat_cpu_seconds(text)
        return total

    def stop(self) -> None:
        """Stop the server at once and remove its folder."""
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def main() -> None:
    """``python -m bench.pgserver``: start a server, print a new database's URL, and stop
    the server when standard input closes (the JavaScript tests' PostgreSQL).  Without
    PostgreSQL it prints ``SKIP: why`` instead (on CI: exits 1 saying why)."""
    import sys

    reason = missing_reason()
    if reason is not None:
        if on_ci():
            sys.exit(reason)
        print(f"SKIP: {reason}", flush=True)
        return
    server = PostgresServer()
    try:
        print(server.new_database(), flush=True)
        sys.stdin.read()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
