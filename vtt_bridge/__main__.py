"""``python -m vtt_bridge`` is ``vtt-bridge``."""

import sys

from vtt_bridge.cli import main

sys.exit(main())
