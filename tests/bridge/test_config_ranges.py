"""Every setting is checked when the server starts: the operator's typos are refused,
naming the flag, its environment variable and what is allowed."""

from __future__ import annotations

import pytest

from vtt_bridge.cli import SERVE_OPTIONS, main
from vtt_bridge.config import BOUNDS, CHOICES, Config, ConfigError

#: What the probe of issue 22 found taken silently, each with the range it breaks.
PROBED = [
    ("--rate-burst", "0"),
    ("--rate-limit", "nan"),
    ("--rate-limit", "0"),
    ("--join-timeout", "0"),
    ("--heartbeat", "0"),
    ("--max-message-bytes", "0"),
    ("--max-message-bytes", "100"),
    ("--outbound-queue", "1"),
    ("--max-connections", "0"),
    ("--max-connections-per-token", "-1"),
]


def serve_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["serve", *args]) == 2
    return capsys.readouterr().err


@pytest.mark.parametrize(("flag", "value"), PROBED)
def test_the_probed_typos_are_refused_at_start(
    capsys: pytest.CaptureFixture[str], flag: str, value: str
) -> None:
    error = serve_error(capsys, flag, value)
    bound = next(b for b in BOUNDS.values() if f"--{b.flag}" == flag)
    assert error.startswith(f"ERROR {flag} (${bound.env}) must be a finite number in ")
    assert bound.describe() in error
    got = error.rstrip().rsplit("got ", 1)[1]
    assert float(got) == float(value) or value == got == "nan"


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_every_numeric_setting_is_refused_outside_its_range(name: str) -> None:
    bound = BOUNDS[name]
    kind = type(getattr(Config(), name) if getattr(Config(), name) is not None else 1)
    outside = [bound.lo - 1, bound.hi + 1] if kind is int else [bound.lo / 2 - 1, bound.hi * 2]
    if kind is float:
        outside += [float("nan"), float("inf")]
    for value in outside:
        with pytest.raises(ConfigError) as refused:
            Config(**{name: kind(value) if kind is int else value})
        assert f"--{bound.flag} (${bound.env})" in str(refused.value)
        assert bound.describe() in str(refused.value)
    for value in (bound.lo, bound.hi):  # both ends are allowed
        if name == "ops_port":
            Config(ops_port=int(value), port=8080)
        else:
            Config(**{name: kind(value)})


def test_every_serve_option_is_bounded_or_a_word_or_text() -> None:
    # A new numeric flag cannot be added without a range.
    texts = {"host", "database", "record_dir", "allowed_origins", "allowed_hosts"}
    texts |= {
        "crash_at",
        "ops_token",
        "ops_host",
        "tls_cert",
        "tls_key",
        "public_url",
    }  # tls: files, read at start; public_url: checked as a ws:// or wss:// URL
    for _, name, kind, _ in SERVE_OPTIONS:
        assert name in BOUNDS or name in CHOICES or name in texts, name
        if kind in (int, float):
            assert name in BOUNDS, name


def test_the_environment_is_checked_alike(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VTT_BRIDGE_RATE_LIMIT", "nan")
    assert "--rate-limit ($VTT_BRIDGE_RATE_LIMIT)" in serve_error(capsys)
    monkeypatch.setenv("VTT_BRIDGE_RATE_LIMIT", "fast")
    assert "$VTT_BRIDGE_RATE_LIMIT (--rate-limit): 'fast' is not a valid value" in serve_error(
        capsys
    )
    monkeypatch.delenv("VTT_BRIDGE_RATE_LIMIT")
    monkeypatch.setenv("VTT_BRIDGE_OPS_TOKEN", "")
    assert "--ops-token ($VTT_BRIDGE_OPS_TOKEN) must be a non-empty token" in serve_error(capsys)
    monkeypatch.setenv("VTT_BRIDGE_OPS_TOKEN", "   ")
    assert "non-empty" in serve_error(capsys)


def test_words_origins_and_hosts_are_checked(capsys: pytest.CaptureFixture[str]) -> None:
    assert "--synchronous ($VTT_BRIDGE_SYNCHRONOUS) must be one of FULL" in serve_error(
        capsys, "--synchronous", "BOGUS"
    )
    assert "--log-format" in serve_error(capsys, "--log-format", "xml")
    assert "is not an origin" in serve_error(capsys, "--allowed-origins", "vtt.example")
    assert "is not a host name" in serve_error(capsys, "--allowed-hosts", "http://vtt.example/")
    assert "--ops-port ($VTT_BRIDGE_OPS_PORT) must differ" in serve_error(
        capsys, "--port", "9000", "--ops-port", "9000"
    )
