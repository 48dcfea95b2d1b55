"""``serve --tls-cert --tls-key``: the table view over ``https://``, the WebSocket over
``wss://``, with a certificate the test makes (``trustme``) and clients that verify it;
mismatched or half-given TLS settings stop the server before it listens."""

from __future__ import annotations

import asyncio
import os
import ssl
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest
import trustme

import protocol
from bench.crash import free_port

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


@pytest.fixture
def certificate(tmp_path: Path) -> tuple[trustme.CA, Path, Path]:
    """A test CA, and the server's certificate chain and key files signed by it."""
    ca = trustme.CA()
    cert = ca.issue_cert("127.0.0.1", "localhost")
    chain, key = tmp_path / "chain.pem", tmp_path / "key.pem"
    cert.private_key_pem.write_to_path(str(key))
    with open(chain, "wb") as out:
        for blob in cert.cert_chain_pems:
            out.write(blob.bytes())
    return ca, chain, key


def serve(tmp_path: Path, *flags: str) -> subprocess.Popen[str]:
    """``vtt-bridge serve --demo`` with ``flags``; stdout and stderr piped."""
    command = [sys.executable, "-m", "vtt_bridge", "serve", "--demo"]
    return subprocess.Popen(
        [*command, "--db", str(tmp_path / "db.sqlite3"), *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )


async def test_the_table_view_and_the_websocket_speak_tls(
    tmp_path: Path, certificate: tuple[trustme.CA, Path, Path]
) -> None:
    ca, chain, key = certificate
    port = free_port()
    server = serve(tmp_path, "--port", str(port), "--tls-cert", str(chain), "--tls-key", str(key))
    try:
        assert server.stdout is not None
        printed = [server.stdout.readline() for _ in range(3)]
        assert printed[0].startswith(f"vtt-bridge listening on wss://127.0.0.1:{port}/ws")
        gm_token = None
        for line in server.stdout:
            if line.split()[:2] == ["gm", "gm"]:
                gm_token = line.split()[-1]
            if line.strip().startswith("gm") and "#token=" in line:
                assert f"https://127.0.0.1:{port}/#token=" in line
                break
        assert gm_token is not None
        trusting = ssl.create_default_context()
        ca.configure_trust(trusting)
        page = f"https://127.0.0.1:{port}/"
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(ssl=trusting)) as http:
            for _ in range(100):  # it prints its tokens before it listens
                try:
                    async with http.get(page) as response:
                        html = await response.text()
                    break
                except aiohttp.ClientConnectorError:
                    await asyncio.sleep(0.05)
            assert response.status == 200 and "<html" in html.lower()
            async with http.get(page + "healthz") as response:
                assert (await response.json())["ok"] is True
            # The page's own origin over TLS is https://host:port: allowed as the server's own.
            ws = await http.ws_connect(f"wss://127.0.0.1:{port}/ws", origin=page[:-1])
            join = protocol.Join(seq=1, token=gm_token, last_event=None)
            await ws.send_str(protocol.encode_json(join))
            welcome = protocol.decode_server((await ws.receive(timeout=10)).data)
            assert isinstance(welcome, protocol.Welcome) and welcome.role == "gm"
            await ws.close()
        # A client that does not trust the certificate's CA refuses the server.
        async with aiohttp.ClientSession() as untrusting:
            with pytest.raises(aiohttp.ClientConnectorCertificateError):
                await untrusting.get(page)
            # Plain http to the TLS port is no way in either.
            try:
                async with untrusting.get(f"http://127.0.0.1:{port}/healthz") as response:
                    status: int | None = response.status
            except aiohttp.ClientError:
                status = None
            assert status is None or status >= 400
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_half_given_or_mismatched_tls_settings_stop_the_server(
    tmp_path: Path, certificate: tuple[trustme.CA, Path, Path]
) -> None:
    _, chain, key = certificate
    half = serve(tmp_path, "--port", str(free_port()), "--tls-cert", str(chain))
    _, err = half.communicate(timeout=60)
    assert half.returncode == 2 and "go together" in err
    other = trustme.CA().issue_cert("127.0.0.1")
    wrong_key = tmp_path / "other-key.pem"
    other.private_key_pem.write_to_path(str(wrong_key))
    flags = ("--tls-cert", str(chain), "--tls-key", str(wrong_key))
    mismatched = serve(tmp_path, "--port", str(free_port()), *flags)
    _, err = mismatched.communicate(timeout=60)
    assert mismatched.returncode == 2 and "cannot be used together" in err
    missing = serve(tmp_path, "--port", "0", "--tls-cert", "nope.pem", "--tls-key", str(key))
    _, err = missing.communicate(timeout=60)
    assert missing.returncode == 2 and "no such file" in err
