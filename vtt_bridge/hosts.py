"""Which ``Host`` a request may name and which ``Origin`` may open a WebSocket.

DNS rebinding: a page on ``evil.example`` whose name is made to resolve to this server's
address can send requests here that its browser treats as same-origin, naming
``Host: evil.example``.  So every request (``/ws``, ``/``, ``/healthz``, ``/metrics``)
must name an allowed host:

* an IP literal (``127.0.0.1``, ``[::1]``, ``192.0.2.7``): a rebinding page never names
  one (its point is a name the attacker's DNS answers for), so the server is reachable
  at any address it listens on without listing them;
* ``localhost`` and the ``--host`` the server was told to listen on;
* a name in ``--allowed-hosts`` (``host`` matches any port, ``host:port`` that port;
  ``*`` allows any host, for a proxy that checks it itself).

The port is not compared for the first two: what a rebinding page controls is the
name, and a port forward or a proxy (``docker -p 80:8080``, a TCP relay) passes on a
``Host`` naming its own port.

Refused with 421 (Misdirected Request): the request named a server this is not.

A browser's ``Origin`` must then be the server's own (scheme, host and port of the
request itself: the table view served at ``/``) or one of ``--allowed-origins``,
compared by scheme, host and port too (``https://vtt.example`` is
``https://vtt.example:443``, and not ``http://vtt.example``).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

from vtt_bridge.config import Config

_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def split_host(value: str, scheme: str = "http") -> tuple[str, int] | None:
    """``(host, port)`` of a ``Host`` header value, lower case, the port defaulted by
    ``scheme``; None when it does not parse."""
    try:
        parts = urlsplit(f"//{value}")
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not host:
        return None
    return host.lower(), port if port is not None else _DEFAULT_PORTS.get(scheme, 80)


def origin_tuple(origin: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of an origin, with the scheme's default port."""
    try:
        parts = urlsplit(origin.strip())
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if not host or scheme not in _DEFAULT_PORTS:
        return None
    return scheme, host.lower(), port if port is not None else _DEFAULT_PORTS[scheme]


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def _has_port(entry: str) -> bool:
    try:
        return urlsplit(f"//{entry}").port is not None
    except ValueError:
        return False


def host_allowed(config: Config, host: str | None, scheme: str = "http") -> bool:
    """Whether a request naming ``Host: host`` is for us."""
    if "*" in config.allowed_hosts:
        return True
    if host is None:
        return False  # HTTP/1.1 requires it; a request without one names nobody
    found = split_host(host, scheme)
    if found is None:
        return False
    name, port = found
    for entry in config.allowed_hosts:
        listed = split_host(entry, scheme)
        if listed is not None and listed[0] == name and (not _has_port(entry) or listed[1] == port):
            return True
    return _is_ip(name) or name in ("localhost", config.host.lower())


def origin_allowed(
    config: Config, origin: str | None, host: str | None = None, scheme: str = "http"
) -> bool:
    """A browser's ``Origin`` must be this server itself (same scheme, host and port as
    the request) or on the allowlist; non-browser clients send none."""
    if origin is None:
        return True
    if "*" in config.allowed_origins:
        return True
    given = origin_tuple(origin)
    if given is None:
        return False
    if host is not None:
        own = split_host(host, scheme)
        if own is not None and given == (scheme, *own):
            return True
    return any(origin_tuple(allowed) == given for allowed in config.allowed_origins)


def hosts_guard(config: Config, on_refused: Callable[[web.Request], None]) -> Middleware:
    """The middleware refusing a request that names another host (421), telling
    ``on_refused`` (the server counts them)."""

    @web.middleware
    async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not host_allowed(config, request.headers.get("Host"), request.scheme):
            on_refused(request)
            raise web.HTTPMisdirectedRequest(text="this server does not answer for that host")
        return await handler(request)

    return guard
