"""The table view: the page ``vtt-bridge serve`` shows at ``/``, and the files it loads.

``/`` is ``static/index.html``; ``/view/...`` the page's own modules and styles
(``static/view/``); ``/client/src/...`` and ``/client/vendor/...`` the JavaScript client
library it runs on (``clients/js/``, reached through the ``static/client`` link, which a
wheel holds as a copy).  Only files under those directories with a known suffix are
served, each with its content type stated (a module script served as anything but
JavaScript is refused by browsers).  The join token never reaches the server in a URL:
the page reads it from the fragment (``/#token=...``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Final

from aiohttp import web

STATIC: Final = Path(__file__).resolve().parent / "static"
#: URL prefix -> directory served under it (resolved: the client library is a link).
ROOTS: Final = {
    "view": STATIC / "view",
    "client/src": (STATIC / "client" / "src").resolve(),
    "client/vendor": (STATIC / "client" / "vendor").resolve(),
}
CONTENT_TYPES: Final = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".css": "text/css",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}
#: The page changes with the package; browsers must not keep an old copy across an upgrade.
_HEADERS: Final = {"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"}


def add_routes(app: web.Application) -> None:
    """Serve the table view at ``/`` and its files."""
    app.router.add_get("/", index)
    for prefix, root in ROOTS.items():
        app.router.add_get(f"/{prefix}/{{path:.+}}", _files_in(root))


async def index(request: web.Request) -> web.StreamResponse:
    """The page itself."""
    return _file(STATIC / "index.html")


def _files_in(root: Path) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    async def serve(request: web.Request) -> web.StreamResponse:
        """A file under ``root``, or 404 (nothing outside it, whatever the path says)."""
        path = (root / request.match_info["path"]).resolve()
        if not path.is_relative_to(root) or not path.is_file():
            raise web.HTTPNotFound()
        return _file(path)

    return serve


def _file(path: Path) -> web.StreamResponse:
    kind = CONTENT_TYPES.get(path.suffix)
    if kind is None:
        raise web.HTTPNotFound()
    return web.FileResponse(path, headers={**_HEADERS, "Content-Type": kind})
