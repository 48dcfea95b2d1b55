"""What an operator needs around the WebSocket endpoint: who may read ``/healthz`` and
``/metrics`` (a bearer token, a listener of their own), and a warning when the
connection cap cannot be reached within the process's file limit."""

from __future__ import annotations

import hmac
import logging

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

from vtt_bridge.config import Config
from vtt_bridge.tableops import ADMIN_PREFIX, refused

log = logging.getLogger("vtt_bridge")
#: The operations endpoints: behind ``--ops-token``, and only on ``--ops-port`` if set.
OPS_PATHS = frozenset({"/healthz", "/metrics", "/metrics.json"})


def _local_port(request: web.Request) -> int | None:
    sockname = request.transport.get_extra_info("sockname") if request.transport else None
    return sockname[1] if isinstance(sockname, tuple) and len(sockname) >= 2 else None


def operations_guard(config: Config) -> Middleware:
    """The middleware that keeps the operations endpoints to their listener and token.

    With ``ops_port`` set, ``/healthz`` and ``/metrics`` answer only there (404 on the
    main address) and the ops listener answers nothing else.  With ``ops_token`` set,
    they require ``Authorization: Bearer <token>`` (401 otherwise).  The operator's
    requests (``/admin/...``, :mod:`vtt_bridge.tableops`) always require it: a server
    with no ``ops_token`` refuses them (403, ``no_credential``)."""

    @web.middleware
    async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        on_ops = config.ops_port is not None and _local_port(request) == config.ops_port
        administers = request.path.startswith(ADMIN_PREFIX)
        if request.path not in OPS_PATHS and not administers:
            if on_ops:
                raise web.HTTPNotFound()
            return await handler(request)
        if config.ops_port is not None and not on_ops:
            raise web.HTTPNotFound()
        if administers:
            # Making and archiving tables always needs the credential: without one,
            # anyone who reaches the port could.
            if config.ops_token is None:
                text = "this server has no --ops-token: tables are made on its host only"
                return refused(403, "no_credential", text)
            if not bearer_matches(request, config.ops_token):
                return refused(401, "unauthorized", "Authorization: Bearer <ops token> required")
            return await handler(request)
        if config.ops_token is not None and not bearer_matches(request, config.ops_token):
            raise web.HTTPUnauthorized(
                text="bearer token required", headers={"WWW-Authenticate": 'Bearer realm="ops"'}
            )
        return await handler(request)

    return guard


def bearer_matches(request: web.Request, token: str) -> bool:
    """Whether the request's ``Authorization`` header is ``Bearer <token>`` (compared in
    constant time)."""
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(given.strip().encode(), token.encode())


#: Files the server needs besides its connections: the database and its WAL, the
#: listening sockets, recordings, handshakes not yet counted as connections.
FILES_RESERVED = 64


def warn_if_files_run_short(max_connections: int) -> None:
    """Warn when ``--max-connections`` cannot be reached within the process's file
    limit: the connections beyond it would fail in ``accept()`` ("Too many open
    files") instead of getting a clean 503, and ``/healthz`` with them."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not a Unix
        return
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and max_connections + FILES_RESERVED > soft:
        log.warning(
            "--max-connections %d is too close to the file limit %d (ulimit -n): set it to "
            "at most %d or raise the limit",
            max_connections,
            soft,
            max(1, soft - FILES_RESERVED),
        )
