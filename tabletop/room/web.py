"""The room page and the room host console (Starlette, plain HTML/JS, no build step).

* ``/`` — the room page for the projector: the leaderboard per game, each table's state and
  health, who is connected; updated over the WebSocket ``/ws``.
* ``/console?token=...`` — the room host console: next round everywhere, pause and play on,
  broadcast, a duplicate roll, the same clue cards everywhere, Swiss or random seats, end the
  session and export. Every ``POST /api/console/NAME`` needs the room's token (403 otherwise).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import pathlib
import secrets
import threading
import time
from typing import Any, AsyncIterator

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from tabletop import i18n
from tabletop.room.export import standings_csv
from tabletop.room.messages import Refused
from tabletop.room.service import RoomService
from tabletop.web.app import WebServer
from tabletop.web.limits import ServerLimits, guarded_protocol, nodelay

STATIC = pathlib.Path(__file__).resolve().parent / "static"
#: the table pages' scripts the room pages share: their helpers and their languages (docs/i18n.md)
WEB_STATIC = pathlib.Path(__file__).resolve().parents[1] / "web" / "static"
SHARED_SCRIPTS = ("common.js", "i18n.js")
#: how often the page may be updated (seconds): changes in between are shown together
PUSH_EVERY = 0.05
MAX_BODY = 16 * 1024


def _number(body: dict[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = body.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Refused(f"{key!r} must be a whole number from {low} to {high}")
    return value


def console_action(service: RoomService, name: str, body: dict[str, Any]) -> dict[str, Any]:
    """Run the console's command ``name`` with ``body``; what to answer (:class:`Refused` for a bad one)."""
    if name in ("next", "pause", "resume"):
        command = service.send(name)
        return {"status": "sent", "command": command.name, "id": command.id}
    if name == "message":
        command = service.send("message", text=body.get("text"))
        return {"status": "sent", "id": command.id}
    if name == "roll":
        language = body.get("language", "en")
        if language not in ("en", "uk"):
            raise Refused("the dice are en or uk")
        return {"status": "sent", "faces": service.roll_everywhere(language)}
    if name == "deck":
        seed = _number(body, "seed", secrets.randbelow(10**6), 0, 2**31)
        service.send("deck", seed=seed)
        return {"status": "sent", "seed": seed}
    if name == "seats":
        kind = body.get("kind", "swiss")
        if kind not in ("swiss", "random"):
            raise Refused("seats are swiss or random")
        seating = service.seating(kind, _number(body, "size", 4, 1, 12), body.get("seed") if isinstance(
            body.get("seed"), int) else None)
        return {"status": "sent", "seating": seating}
    if name == "end":
        return {"status": "ended", "files": service.end()}
    raise KeyError(name)


def make_app(service: RoomService, token: str) -> Starlette:
    clients: dict[WebSocket, str] = {}          # each page and the language it asked for

    def allowed(request: Request) -> bool:
        given = request.headers.get("x-tabletop-token") or request.query_params.get("token") or ""
        return hmac.compare_digest(given.encode(), token.encode())

    async def page(request: Request) -> FileResponse:
        return FileResponse(STATIC / "room.html")

    async def shared(request: Request) -> FileResponse:
        """The style and the drawing script the room page and the console share."""
        return FileResponse(STATIC / request.url.path.lstrip("/"))

    async def console(request: Request) -> Any:
        if not allowed(request):
            return PlainTextResponse("The room console needs its token: use the link the room printed.", 403)
        return FileResponse(STATIC / "console.html")

    async def snapshot(request: Request) -> JSONResponse:
        language = i18n.language_of(request.headers.get("x-tabletop-language") or request.query_params.get("lang"))
        return JSONResponse(i18n.translate_view(await run_in_threadpool(service.snapshot), language))

    async def texts(request: Request) -> JSONResponse:
        """The room pages' own texts (docs/i18n.md): in the language asked for (``?lang=``), else English."""
        language = i18n.language_of(request.query_params.get("lang"))
        found = i18n.translator(language)
        return JSONResponse({"language": language, "languages": list(i18n.LANGUAGES),
                             "pages": dict(found.catalogue.pages) if found else {}})

    async def page_script(request: Request) -> Any:
        """The table pages' helpers and their language script (T.t, the EN | УК switch), shared."""
        name = request.path_params["name"]
        if name not in SHARED_SCRIPTS:
            return PlainTextResponse("Not found.", 404)
        return FileResponse(WEB_STATIC / name, headers={"Cache-Control": "no-store"})

    async def action(request: Request) -> JSONResponse:
        if not allowed(request):
            return JSONResponse({"error": "wrong or missing room token"}, 403)
        raw = await request.body()
        if len(raw) > MAX_BODY:
            return JSONResponse({"error": f"a console request is at most {MAX_BODY} bytes"}, 413)
        try:
            body = json.loads(raw or b"{}")
            if not isinstance(body, dict):
                raise ValueError
        except ValueError:
            return JSONResponse({"error": "the body is one JSON object"}, 400)
        try:
            return JSONResponse(await run_in_threadpool(console_action, service, request.path_params["name"], body))
        except KeyError:
            return JSONResponse({"error": f"no console command {request.path_params['name'][:40]!r}"}, 404)
        except Refused as refusal:
            return JSONResponse({"error": str(refusal)}, 400)

    async def export(request: Request) -> Any:
        if not allowed(request):
            return JSONResponse({"error": "wrong or missing room token"}, 403)
        board = await run_in_threadpool(service.board, True)
        if request.path_params["kind"] == "csv":
            return PlainTextResponse(standings_csv(board), media_type="text/csv")
        return JSONResponse({g: [s.to_json() for s in lines] for g, lines in board.items()})

    async def ws(websocket: WebSocket) -> None:
        await websocket.accept()
        clients[websocket] = language = i18n.language_of(websocket.query_params.get("lang"))
        try:
            await websocket.send_text(json.dumps(i18n.translate_view(await run_in_threadpool(service.snapshot), language)))
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            clients.pop(websocket, None)

    async def pusher() -> None:
        """Send the page every change, at most every :data:`PUSH_EVERY` seconds."""
        seen = -1
        while True:
            await asyncio.sleep(PUSH_EVERY)
            if service.version == seen:
                continue
            seen = service.version
            room = await run_in_threadpool(service.snapshot)
            texts: dict[str, str] = {}               # one text a language the pages asked for
            for client, language in list(clients.items()):
                if language not in texts:
                    texts[language] = json.dumps(i18n.translate_view(room, language))
                try:
                    await client.send_text(texts[language])
                except Exception:
                    clients.pop(client, None)
            service.page_updated()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.get_running_loop().create_task(pusher())
        yield
        task.cancel()

    return Starlette(routes=[Route("/", page), Route("/console", console), Route("/room.js", shared),
                             Route("/room.css", shared), Route("/api/room", snapshot), Route("/api/i18n", texts),
                             Route("/static/{name:str}", page_script),
                             Route("/api/console/{name}", action, methods=["POST"]),
                             Route("/api/export.{kind:str}", export), WebSocketRoute("/ws", ws)],
                     lifespan=lifespan)


class RoomServer:
    """Serve the room's pages from a background thread (uvicorn), with the bounds of the table's
    own pages (:mod:`tabletop.web.limits`: connections per client and in all, head and body
    timeouts)."""

    def __init__(self, service: RoomService, host: str = "127.0.0.1", port: int = 0, token: str | None = None):
        import uvicorn
        self.token = token or secrets.token_urlsafe(12)
        self.sock = WebServer.bind(host, port)
        nodelay(self.sock)
        self.host, self.port = host, self.sock.getsockname()[1]
        config = uvicorn.Config(make_app(service, self.token), log_level="warning", lifespan="on",
                                ws="websockets-sansio", http=guarded_protocol(ServerLimits()),
                                timeout_keep_alive=5, timeout_graceful_shutdown=1)   # the table's pages' bounds
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       name="room-web", daemon=True)

    @property
    def url(self) -> str:
        return f"http://{'127.0.0.1' if self.host in ('0.0.0.0', '') else self.host}:{self.port}"

    def start(self) -> "RoomServer":
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=5)
        self.sock.close()
