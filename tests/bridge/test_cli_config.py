"""Operations from the command line: tokens issued and revoked with ``vtt-bridge``, and
``serve`` configured by flags and environment variables."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from vtt_bridge.cli import build_parser, config_from_args, event_loop
from vtt_bridge.store import Store


def vtt_bridge(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vtt_bridge", *args], capture_output=True, text=True, timeout=60
    )


def test_issue_and_revoke_tokens_with_the_cli(tmp_path: Path) -> None:
    db = str(tmp_path / "db.sqlite3")
    made = vtt_bridge("create-table", "night", "--player", "alice", "--dice", "server", "--db", db)
    assert made.returncode == 0, made.stderr
    issued = vtt_bridge("issue-token", "night", "carol", "--role", "spectator", "--db", db)
    assert issued.returncode == 0, issued.stderr
    token = issued.stdout.split()[-1]
    store = Store(db)
    grant = store.join_token(token)
    assert grant is not None and (grant.participant, grant.role) == ("carol", "spectator")
    assert store.tables()[0].dice == "server"
    store.close()
    assert vtt_bridge("revoke-token", token, "--db", db).returncode == 0
    store = Store(db)
    revoked = store.join_token(token)
    assert revoked is not None and revoked.revoked
    store.close()
    assert vtt_bridge("revoke-token", token, "--db", db).returncode == 1  # already revoked
    assert vtt_bridge("issue-token", "night", "gm", "--db", db).returncode == 1  # reserved


def test_serve_options_come_from_flags_then_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VTT_BRIDGE_RATE_LIMIT", "12.5")
    monkeypatch.setenv("VTT_BRIDGE_ALLOWED_ORIGINS", "https://a.example, https://b.example")
    monkeypatch.setenv("VTT_BRIDGE_PORT", "9000")
    monkeypatch.setenv("VTT_BRIDGE_DEMO", "true")
    config = config_from_args(build_parser().parse_args(["serve", "--port", "9001"]))
    assert config.rate_limit == 12.5
    assert config.allowed_origins == ("https://a.example", "https://b.example")
    assert config.port == 9001  # the flag wins
    assert config.demo is True
    assert config.synchronous == "FULL" and config.join_timeout == 10.0


def test_serve_runs_on_uvloop_when_asked_and_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    default = config_from_args(build_parser().parse_args(["serve"])).event_loop
    assert default == "asyncio"  # it logs running out of files, where uvloop is silent
    plain = event_loop(default)
    try:
        assert type(plain).__module__.startswith("asyncio")
    finally:
        plain.close()
    with pytest.raises(ValueError, match="unknown event loop 'trio'"):
        event_loop("trio")
    uvloop = pytest.importorskip("uvloop")
    auto = event_loop("auto")
    try:
        assert isinstance(auto, uvloop.Loop)
    finally:
        auto.close()
    monkeypatch.setitem(sys.modules, "uvloop", None)  # as where it is not installed
    fallback = event_loop("auto")
    try:
        assert type(fallback).__module__.startswith("asyncio")
    finally:
        fallback.close()
    with pytest.raises(ImportError):
        event_loop("uvloop")


def test_serve_refuses_an_unknown_event_loop(tmp_path: Path) -> None:
    done = vtt_bridge("serve", "--db", str(tmp_path / "db.sqlite3"), "--event-loop", "trio")
    assert done.returncode == 2 and "--event-loop" in done.stderr and "'trio'" in done.stderr
    assert not (tmp_path / "db.sqlite3").exists()  # refused before anything started
