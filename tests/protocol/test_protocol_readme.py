"""Every JSON example in protocol/README.md decodes, and every message has one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from protocol import (
    CLIENT_MESSAGE_TYPES,
    SERVER_MESSAGE_TYPES,
    ProtocolError,
    decode_client,
    decode_server,
    decode_server_frame,
)

README = Path(__file__).resolve().parents[2] / "protocol" / "README.md"
BLOCKS = re.findall(r"```json\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def decode_either(frame: str) -> list[object]:
    """The messages of an example: one envelope either way, or a server's batch frame."""
    if frame.lstrip().startswith("["):
        return list(decode_server_frame(frame))
    try:
        return [decode_client(frame)]
    except ProtocolError as exc:
        if exc.code != "unknown_type":
            raise
    return [decode_server(frame)]


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_example_decodes(block: str) -> None:
    assert decode_either(block)


def test_readme_shows_every_message() -> None:
    shown = {type(m).TYPE for block in BLOCKS for m in decode_either(block)}  # type: ignore[attr-defined]
    assert shown == {*CLIENT_MESSAGE_TYPES, *SERVER_MESSAGE_TYPES}
