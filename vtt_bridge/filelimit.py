"""The process's open-file limit, raised at start to what the system allows.

Every WebSocket is a file. Many systems start a process with a soft limit of 1,024 and a
hard limit far above it (often 524,288): the soft limit is the one ``accept()`` meets,
and any process may raise its own soft limit up to the hard one. So ``vtt-bridge serve``
does, before it listens, and logs the limit it runs with; ``--max-connections`` is then
checked against the raised limit (:func:`vtt_bridge.operations.warn_if_files_run_short`).
"""

from __future__ import annotations

import logging
import resource

log = logging.getLogger("vtt_bridge")

#: A ceiling for an "unlimited" hard limit: setting the soft limit to infinity is
#: refused by Linux (it is capped by ``fs.nr_open``), and no bridge needs more.
CEILING = 1_048_576


def raise_file_limit() -> tuple[int, int]:
    """Raise the soft open-file limit to the hard one (at most :data:`CEILING`).

    Returns the soft limit before and after; logs what it did, and why not when the
    system refuses."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = CEILING if hard == resource.RLIM_INFINITY else min(hard, CEILING)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError) as exc:
            log.warning(
                "open-file limit stays at %d (could not raise it to %d: %s)", soft, wanted, exc
            )
            return soft, soft
        log.info("open-file limit raised from %d to %d (the hard limit)", soft, wanted)
        return soft, wanted
    log.info("open-file limit %d", soft)
    return soft, soft
