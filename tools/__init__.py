"""Developer tools run from a checkout (``python -m tools.<name>``); not in the wheel."""
