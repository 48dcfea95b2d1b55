"""``python -m tests.toy_bridge serve ...``: the ``vtt-bridge`` command with the toy ruleset
(:mod:`tests.toy_ruleset`) registered, so a client test can play a game no client knows."""

import sys

import tests.toy_ruleset  # noqa: F401  (registers "toy-duel")
from vtt_bridge.cli import main

if __name__ == "__main__":
    sys.exit(main())
