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
)

README = Path(__file__).resolve().parents[2] / "protocol" / "README.md"
BLOCKS = re.findall(r"```json\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def decode_either(frame: str) -> object:
    try:
        return decode_client(frame)
    except ProtocolError as exc:
        if exc.code != "unknown_type":
            raise
    return decode_server(frame)


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_example_decodes(block: str) -> None:
    decode_either(block)


def test_readme_shows_every_message() -> None:
    shown = {type(decode_either(block)).TYPE for block in BLOCKS}  # type: ignore[attr-defined]
    assert shown == {*CLIENT_MESSAGE_TYPES, *SERVER_MESSAGE_TYPES}
