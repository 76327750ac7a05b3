"""The session's web pages and their API (Starlette; plain HTML/JS/CSS, no build step).

* ``/`` — the live scoreboard (WebSocket ``/ws``): scores, whose turn, buzz order, timers
  counting down, the board as read with the last word highlighted.
* ``/host`` — the host console: every action needs the host's token (403 otherwise).
* ``/camera?token=...`` — a phone (or a laptop's webcam) as the table's camera: frames over the
  WebSocket ``/ws/camera``, read by the game's camera input
  (:mod:`tabletop.session.devices.phone_camera`); its link and QR code are on the host console.
* ``/seat?token=...`` — a player's page: one token per seat; entries typed here become the
  seat's events; a window's entries stay hidden from other seats until its deadline, and the
  server refuses entries after it (it checks the table clock, not the page's).
* ``/join/CODE`` — a seat's short code (or its QR code, ``/qr/CODE.svg``) leads to its page;
  ``/join`` asks for the code (:mod:`tabletop.web.join`).

Tokens travel in the ``X-Tabletop-Token`` header (or a ``token`` query parameter).

Every JSON answer speaks the page's language: its sentences (messages, errors, the views'
texts: :mod:`tabletop.i18n`) are translated into the ``X-Tabletop-Language`` header's language
(or ``?lang=``; English without either, as the rules say them). ``/api/i18n?lang=`` gives a page
its own texts, and the language to use when the page has not chosen one: the game's.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import math
import pathlib
import socket
import threading
import time
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from tabletop import i18n
from tabletop.session import host_commands
from tabletop.session.core import BadEntry, EntryRefused, NotYourEntry, Session
from tabletop.session.refusals import TooManyRefusals
from tabletop import pieces
from tabletop.session.devices.phones import NoQuestionOpen, PhoneBuzzers
from tabletop.session.devices.photo_scan import MAX_PHOTO_BYTES, ScanRefused, reads_photos
from tabletop.session.devices.phone_camera import FRAME_BYTES, CameraStation, camera_token
from tabletop.session.join_codes import codes_of, seat_of_code
from tabletop.web.join import WrongCodes, qr_svg
from tabletop.web.limits import ServerLimits, guarded_protocol, nodelay

STATIC = pathlib.Path(__file__).resolve().parent / "static"


#: the answer to a seat request whose token is no seat's
WRONG_SEAT_TOKEN = "This seat's token is wrong or missing: use the link printed for your seat."

#: the largest request body the pages may send (an entry, an event, a host action)
MAX_BODY = 64 * 1024


class BadRequest(Exception):
    """A request that cannot be used: the message says why (answered with 400 or 413)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


async def _bounded_body(request: Request, most: int, too_large: str) -> bytes:
    """The request's body, read at most ``most`` bytes; :class:`BadRequest` (413, ``too_large``) beyond."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > most):
        raise BadRequest(too_large, 413)
    body = b""
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > most:
                raise BadRequest(too_large, 413)
    except ClientDisconnect:               # gone, or cut off by the server's body timeout
        raise BadRequest("The request's body did not arrive in time.", 408) from None
    return body


async def _json_body(request: Request) -> dict:
    """The request's JSON object, read at most :data:`MAX_BODY` bytes; :class:`BadRequest` otherwise."""
    body = await _bounded_body(request, MAX_BODY, f"The request is too large: at most {MAX_BODY // 1024} KB.")
    try:
        from tabletop.records import parse_json
        data = parse_json(body.decode("utf-8"), "the request")
    except UnicodeDecodeError:
        raise BadRequest("The request is not UTF-8 JSON.") from None
    except Exception as error:                       # UserError: bad JSON, NaN, deep nesting
        raise BadRequest(str(error)) from None
    if not isinstance(data, dict):
        raise BadRequest("The request must be a JSON object.")
    return data


def _number(body: dict, key: str, default: float, low: float, high: float, whole: bool = False) -> float:
    """A finite number field between ``low`` and ``high``; :class:`BadRequest` otherwise."""
    value = body.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (low <= value <= high) \
            or (whole and not float(value).is_integer()):
        kind = "a whole number" if whole else "a number"
        raise BadRequest(f"{key!r} must be {kind} from {low:g} to {high:g}, not {str(value)[:40]!r}.")
    return int(value) if whole else float(value)


def _token(request: Request | WebSocket) -> str:
    return request.headers.get("x-tabletop-token") or request.query_params.get("token") or ""


def _language(request: Request | WebSocket) -> str:
    """The language the page asked its answers in (English if none, or one the table does not speak)."""
    return i18n.language_of(request.headers.get("x-tabletop-language") or request.query_params.get("lang"))


def _answer(request: Request | WebSocket, data: Any, status: int = 200) -> JSONResponse:
    """``data`` as JSON, its sentences in the page's language (:func:`tabletop.i18n.translate_view`)."""
    return JSONResponse(i18n.translate_view(data, _language(request)), status_code=status)


def _refuse(request: Request | WebSocket, message: str, status: int = 403) -> JSONResponse:
    return _answer(request, {"error": message}, status)


def _refused(request: Request, error: EntryRefused) -> JSONResponse:
    """The HTTP answer to a refusal: 400 malformed, 403 not this seat's, 429 too many refused lately,
    409 not possible now."""
    status = 400 if isinstance(error, BadEntry) else 403 if isinstance(error, NotYourEntry) \
        else 429 if isinstance(error, TooManyRefusals) else 409
    return _refuse(request, str(error), status)


def make_app(session: Session) -> Starlette:
    clients: set[tuple[asyncio.AbstractEventLoop, asyncio.Queue]] = set()

    def push(message: dict) -> None:
        text = json.dumps({"type": message.get("kind", "update")})
        for loop, queue in list(clients):
            try:
                loop.call_soon_threadsafe(queue.put_nowait, text)
            except RuntimeError:
                clients.discard((loop, queue))

    session.subscribe(push)

    def seat_of(request: Request | WebSocket) -> str | None:
        token = _token(request)
        for seat, seat_token in session.tokens.get("seats", {}).items():
            if token and hmac.compare_digest(token.encode(), seat_token.encode()):
                return seat
        return None

    def is_host(request: Request) -> bool:
        token = _token(request)
        return bool(token) and hmac.compare_digest(token.encode(), session.tokens.get("host", "").encode())

    async def page(request: Request):
        name = {"/": "scoreboard.html", "/host": "host.html", "/seat": "player.html",
                "/camera": "camera.html", "/join": "join.html"}[request.url.path]
        return FileResponse(STATIC / name, headers={"Cache-Control": "no-store"})

    # -- joining by code or QR code (tabletop.web.join) ----------------------------------------
    wrong_codes = WrongCodes()
    joined: set[str] = set()          # seats whose page has loaded: the scoreboard stops offering their code

    def public_url(request: Request) -> str:
        return getattr(request.app.state, "public_url", None) or str(request.base_url).rstrip("/")

    def code_seat(request: Request) -> tuple[str | None, Response | None]:
        """The seat of the path's code, or the answer to give (429 after too many wrong codes, 404)."""
        client = request.client.host if request.client else "?"
        language = i18n.language_of(session.setup.language)      # before a seat, the game's language
        if not wrong_codes.allowed(client):
            return None, HTMLResponse(_message_page("Too many wrong codes", "Too many wrong codes were tried: wait "
                                                    "a minute, then type the code again.", language), status_code=429)
        seat = seat_of_code(session.tokens, request.path_params["code"])
        if seat is None:
            wrong_codes.wrong(client)
            return None, HTMLResponse(_message_page("No such code", "No seat has that code: check the code "
                                                    "on the scoreboard or the host console.", language), status_code=404)
        return seat, None

    async def join(request: Request):
        seat, refused = code_seat(request)
        if seat is None:
            return refused
        return RedirectResponse(f"/seat?token={session.tokens['seats'][seat]}", status_code=303)

    async def qr(request: Request):
        seat, refused = code_seat(request)
        if seat is None:
            return refused
        link = f"{public_url(request)}/join/{codes_of(session.tokens)[seat]}"
        return Response(await run_in_threadpool(qr_svg, link), media_type="image/svg+xml",
                        headers={"Cache-Control": "no-store"})

    async def join_list(request: Request):
        """The codes to show: every seat's for the host, the seats not joined yet on the scoreboard."""
        codes = codes_of(session.tokens)
        shown = [s for s in session.setup.players if is_host(request) or s not in joined]
        base = public_url(request)
        return JSONResponse({"url": f"{base}/join", "seats": [
            {"seat": s, "code": codes[s], "link": f"{base}/join/{codes[s]}", "qr": f"/qr/{codes[s]}.svg"}
            for s in shown]})

    async def texts(request: Request):
        """A page's own texts in the language it asks for (``?lang=``), else in the game's language."""
        language = i18n.language_of(request.query_params.get("lang"), i18n.language_of(session.setup.language))
        found = i18n.translator(language)
        return JSONResponse({"language": language, "game_language": session.setup.language,
                             "languages": list(i18n.LANGUAGES), "pages": dict(found.catalogue.pages) if found else {}},
                            headers={"Cache-Control": "no-store"})

    async def board(request: Request):
        return JSONResponse(session.board_json())

    async def state(request: Request):
        return _answer(request, await run_in_threadpool(session.view))

    async def host_state(request: Request):
        if not is_host(request):
            return _refuse(request, "This is the host's console: the host token is wrong or missing.")
        return _answer(request, {**(await run_in_threadpool(session.host_view)), "scan": scannable})

    async def host_post(request: Request):
        """A host command (:mod:`tabletop.session.host_commands`: the same table as the keyboard's)."""
        if not is_host(request):
            return _refuse(request, "Only the host can do that: the host token is wrong or missing.")
        name = request.path_params["action"]
        try:
            body = await _json_body(request)
            reply = await run_in_threadpool(host_commands.run, session, name, body, "host")
        except host_commands.UnknownCommand as unknown:
            return _refuse(request, str(unknown), 404)
        except EntryRefused as refused:
            return _refused(request, refused)
        except BadRequest as bad:
            return _refuse(request, str(bad), bad.status)
        return _answer(request, reply.to_json())

    scanner = None
    kind = pieces.of_game(session.setup.game)
    scannable = reads_photos(session)  # the scan button shows

    async def scan(request: Request):
        """A photo of the board from a phone (the body is the image file): its new word is offered."""
        nonlocal scanner
        if not is_host(request) and seat_of(request) is None:
            return _refuse(request, "Only the host and the players can send photos: the token is wrong or missing.")
        try:
            data = await _bounded_body(request, MAX_PHOTO_BYTES,
                                       f"The photo is too large: at most {MAX_PHOTO_BYTES // (1024 * 1024)} MB.")
        except BadRequest as bad:
            return _refuse(request, str(bad), bad.status)
        if kind is None or kind.scanner is None or not scannable:
            return _refuse(request, f"{session.setup.game} is not read from a phone's photo yet: only the handwritten "
                           "boards and the letter tiles are.", 422)
        scanner = scanner or kind.scanner(session)
        try:
            return _answer(request, await run_in_threadpool(scanner.scan, data, "scan:host" if is_host(request)
                                                        else f"scan:{seat_of(request)}"))
        except ScanRefused as refused:
            return _refuse(request, str(refused), 422)

    phones: PhoneBuzzers | None = PhoneBuzzers(session) if session.table.uses_buzzers else None

    station: CameraStation | None = None
    if kind is not None and (session.board is not None or not kind.needs_board):
        journal_path = session.journal.path
        recordings = None if journal_path == ":memory:" else pathlib.Path(journal_path).parent
        station = CameraStation(session, lambda camera: kind.camera_input(session, camera), recordings=recordings)

    def is_camera(request: Request | WebSocket) -> bool:
        token, mine = _token(request), camera_token(session.tokens)
        return bool(token) and bool(mine) and hmac.compare_digest(token.encode(), mine.encode())

    async def host_camera(request: Request):
        """The camera page's link and its QR code (an SVG), for the host console."""
        if not is_host(request):
            return _refuse(request, "This is the host's console: the host token is wrong or missing.")
        if station is None:
            return _answer(request, {"camera": False})
        base = request.app.state.public_url or str(request.base_url).rstrip("/")
        link = f"{base}/camera?token={camera_token(session.tokens)}"
        return _answer(request, {"camera": True, "link": link, "qr": qr_svg(link, inline=True).decode("utf-8"), "status": station.status(),
                             "recording": station.recording})

    async def camera_ws(websocket: WebSocket):
        """A camera page: binary frames (capture time, then a JPEG), each answered with an
        acknowledgement once read; a text ``{"ping": 1}`` (a page waiting for the role) is
        answered with the same reply without a frame."""
        if station is None or not is_camera(websocket):
            await websocket.close(code=4403, reason="This camera link is wrong, or this game reads nothing with a camera.")
            return
        camera_id = websocket.query_params.get("camera") or "anonymous"
        await websocket.accept()
        link = station.connect(camera_id)
        try:
            await websocket.send_text(json.dumps({**station.reply(link), "type": "hello"}))
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                data = message.get("bytes")
                if data is not None:
                    reply = await run_in_threadpool(station.frame, link, data)
                else:
                    reply = station.reply(link)
                await websocket.send_text(json.dumps(reply, allow_nan=False))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            station.disconnect(link)

    async def seat_state(request: Request):
        seat = seat_of(request)
        if seat is None:
            return _refuse(request, WRONG_SEAT_TOKEN)

        joined.add(seat)

        def build() -> dict:
            return session.seat_view(seat, buzzers=phones is not None, scan=scannable)

        return _answer(request, await run_in_threadpool(build))

    async def seat_post(request: Request, do: Callable[[str, dict], Any]) -> JSONResponse:
        """A seat's POST: its token checked, its JSON body read, ``do(seat, body)`` run off the event
        loop; a refusal answered with its status, the outcome (a result or a reply) as JSON."""
        seat = seat_of(request)
        if seat is None:
            return _refuse(request, WRONG_SEAT_TOKEN)
        try:
            body = await _json_body(request)
            outcome = await run_in_threadpool(do, seat, body)
        except BadRequest as bad:
            return _refuse(request, str(bad), bad.status)
        except EntryRefused as refused:
            return _refused(request, refused)
        return _answer(request, outcome if isinstance(outcome, dict) else outcome.to_json())

    async def seat_entry(request: Request):
        """An entry in one of the seat's windows (a word, an answer, a row)."""
        return await seat_post(request, session.enter)

    async def seat_reading(request: Request):
        """The writer settles an unsure read of their own word: ``{"read": SEQ, "text": ...}``."""
        return await seat_post(request, lambda seat, body: session.answer_reading(
            seat, int(host_commands.number(body, "read", -1, 1, 2**53, whole=True)), body.get("text", "")))

    async def seat_action(request: Request):
        """A game action from a seat's page, when the rules give it that seat (SP Classic's asker)."""
        return await seat_post(request, lambda seat, body: host_commands.run_for_seat(session, seat, body))

    async def seat_buzz(request: Request):
        """A phone's buzz-in press, stamped on the phone in table time (``t``)."""
        seat = seat_of(request)
        if seat is None:
            return _refuse(request, WRONG_SEAT_TOKEN)
        if phones is None:
            return _refuse(request, "This game has no buzz-in.", 409)
        try:
            body = await _json_body(request)
            stamped = None if body.get("t") is None else _number(body, "t", 0, -1e9, 1e9)
            used = await run_in_threadpool(phones.press, seat, stamped)
        except BadRequest as bad:
            return _refuse(request, str(bad), bad.status)
        except NoQuestionOpen as closed:
            return _refuse(request, str(closed), 409)
        return _answer(request, {"status": "accepted", "message": "Your hand is up.", "t": used.t,
                                 **({"ordered_by": "arrival"} if used.doubted else {})})

    async def clock_ws(websocket: WebSocket):
        """The phones' clock: each message ``{"c": phone_ms}`` is answered with ``{"c": ..., "s": table_s}``.

        On a seat's socket (``?token=``) the table also times the phone itself: after each answer
        it sends a probe ``{"p": n}``, which the page echoes at once; the round trips bound what
        that seat's buzz stamps may claim (:class:`~tabletop.session.devices.phones.RoundTrips`).
        Anything else (a binary frame, text that is not a ping or an echo) is ignored.
        """
        seat = seat_of(websocket)
        probes = phones.probes(seat) if phones is not None and seat is not None else None
        await websocket.accept()
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                text = message.get("text")
                if not isinstance(text, str) or len(text) > 200:
                    continue
                try:
                    data = json.loads(text)
                except ValueError:
                    continue
                if not isinstance(data, dict):
                    continue
                if probes is not None and "p" in data:
                    probes.echo(data["p"])
                    continue
                c = data.get("c")
                if isinstance(c, (int, float)) and not isinstance(c, bool) and math.isfinite(c):
                    await websocket.send_text(json.dumps({"c": c, "s": session.clock.now()}, allow_nan=False))
                    if probes is not None:
                        await websocket.send_text(json.dumps({"p": probes.send()}))
        except (WebSocketDisconnect, RuntimeError):
            pass

    async def ws(websocket: WebSocket):
        await websocket.accept()
        queue: asyncio.Queue = asyncio.Queue()
        key = (asyncio.get_running_loop(), queue)
        clients.add(key)
        try:
            language = _language(websocket)        # the page's (?lang=): the view's sentences in it
            await websocket.send_text(json.dumps({"type": "view", "view": i18n.translate_view(session.view(), language)}))
            while True:
                try:
                    kind = await asyncio.wait_for(queue.get(), timeout=2.0)
                except asyncio.TimeoutError:
                    kind = json.dumps({"type": "heartbeat"})
                if kind is None:                  # the server is stopping
                    await websocket.close()
                    return
                while not queue.empty():       # coalesce a burst of changes into one view
                    if queue.get_nowait() is None:
                        await websocket.close()
                        return
                view = i18n.translate_view(await run_in_threadpool(session.view), language)
                await websocket.send_text(json.dumps({"type": json.loads(kind)["type"], "view": view}))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            clients.discard(key)

    routes = [
        Route("/", page), Route("/host", page), Route("/seat", page), Route("/camera", page), Route("/join", page),
        Route("/join/{code}", join), Route("/qr/{code}.svg", qr), Route("/api/join", join_list),
        Route("/api/host/camera", host_camera),
        Route("/api/board", board), Route("/api/state", state), Route("/api/i18n", texts),
        Route("/api/scan", scan, methods=["POST"]),
        Route("/api/host/state", host_state), Route("/api/host/{action}", host_post, methods=["POST"]),
        Route("/api/seat/state", seat_state), Route("/api/seat/entry", seat_entry, methods=["POST"]),
        Route("/api/seat/buzz", seat_buzz, methods=["POST"]), Route("/api/seat/action", seat_action, methods=["POST"]),
        Route("/api/seat/reading", seat_reading, methods=["POST"]),
        WebSocketRoute("/ws", ws), WebSocketRoute("/ws/clock", clock_ws),
        WebSocketRoute("/ws/camera", camera_ws),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes)

    def close_clients() -> None:
        for loop, queue in list(clients):
            try:
                loop.call_soon_threadsafe(queue.put_nowait, None)
            except RuntimeError:
                pass

    app.state.close_clients = close_clients
    app.state.phones = phones
    app.state.station = station
    app.state.public_url = None          # the address phones reach the pages at (set by WebServer)
    return app


class WebServer:
    """Serve a session's pages from a background thread (uvicorn), bounded by ``limits``
    (connections per client and in total, head and body timeouts: :mod:`tabletop.web.limits`)."""

    def __init__(self, session: Session, host: str = "127.0.0.1", port: int = 0, sock: socket.socket | None = None,
                 limits: ServerLimits = ServerLimits(), tls_folder: pathlib.Path | None = None):
        import uvicorn
        self.session = session
        self.sock = sock or self.bind(host, port)
        nodelay(self.sock)                  # accepted sockets inherit it (a socket made elsewhere, too)
        self.host, self.port = host, self.sock.getsockname()[1]
        self.app = make_app(session)
        self.app.state.public_url = self.url         # what the QR codes point the phones to
        self.limits = limits
        options = dict(log_level="warning", lifespan="off", ws="websockets-sansio",
                       ws_max_size=FRAME_BYTES + 64 * 1024,    # a camera frame is the largest message
                       http=guarded_protocol(limits), timeout_keep_alive=5, timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(uvicorn.Config(self.app, **options))   # type: ignore[arg-type]
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       name="tabletop-web", daemon=True)
        #: the same pages over HTTPS (``tls_folder``: where the table's certificate is kept), so a
        #: phone's browser lets the camera page use its camera; ``None`` when not served
        self.secure: tuple[socket.socket, Any, threading.Thread] | None = None
        self.secure_port = 0
        self.tls_problem = ""
        if tls_folder is not None:
            self._serve_securely(tls_folder, options)

    def _serve_securely(self, folder: pathlib.Path, options: dict[str, Any]) -> None:
        """A second listener, with the table's own certificate (:mod:`tabletop.web.tls`), on the
        next port (any free one if taken); the camera link then points there."""
        import uvicorn

        from tabletop.errors import UserError
        from tabletop.web import tls

        address = self.url.split("//", 1)[1].rsplit(":", 1)[0]
        try:
            cert, key = tls.certificate(folder, address)
        except tls.NoCertificate as problem:
            self.tls_problem = str(problem)
            return
        try:
            sock = self.bind(self.host, self.port + 1 if self.port else 0)
        except UserError:
            sock = self.bind(self.host, 0)
        nodelay(sock)
        server = uvicorn.Server(uvicorn.Config(self.app, ssl_certfile=str(cert), ssl_keyfile=str(key),
                                               **options))   # type: ignore[arg-type]
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="tabletop-web-tls", daemon=True)
        self.secure, self.secure_port = (sock, server, thread), sock.getsockname()[1]
        self.app.state.public_url = self.secure_url

    @property
    def secure_url(self) -> str:
        """The pages over HTTPS ('' when not served)."""
        return self.url.replace("http://", "https://").rsplit(":", 1)[0] + f":{self.secure_port}" if self.secure else ""

    @staticmethod
    def bind(host: str, port: int) -> socket.socket:
        """The listening socket for the pages (bound before a game is journaled, so a table that
        cannot start leaves nothing behind); a clear UserError when the address is taken."""
        from tabletop.errors import UserError
        if not 0 <= port <= 65535:
            raise UserError(f"--port must be from 0 to 65535, not {port}")
        try:
            sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM,
                                 socket.IPPROTO_TCP)     # so asyncio sets TCP_NODELAY on each accepted socket
        except OSError as error:
            raise UserError(f"cannot serve the pages on {host}: {error.strerror}") from None
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except (OSError, OverflowError) as error:
            sock.close()
            reason = getattr(error, "strerror", None) or str(error)
            raise UserError(f"cannot serve the pages on {host}:{port}: {reason}; choose another --port") from None
        return sock

    @property
    def url(self) -> str:
        host = self.host if self.host not in ("0.0.0.0", "") else _lan_address()
        return f"http://{host}:{self.port}"

    def links(self) -> dict:
        tokens = self.session.tokens
        return {"scoreboard": f"{self.url}/", "host": f"{self.url}/host?token={tokens.get('host', '')}",
                "seats": {s: f"{self.url}/seat?token={t}" for s, t in tokens.get("seats", {}).items()},
                "join": {s: f"{self.url}/join/{code}" for s, code in codes_of(tokens).items()},
                **({"camera": f"{self.secure_url or self.url}/camera?token={camera_token(tokens)}"}
                   if self.app.state.station is not None else {})}

    def start(self) -> "WebServer":
        servers = [(self.server, self.thread)] + ([self.secure[1:]] if self.secure else [])
        for _, thread in servers:
            thread.start()
        deadline = time.monotonic() + 10
        while not all(server.started for server, _ in servers) and time.monotonic() < deadline:
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.app.state.close_clients()
        for server, thread, sock in [(self.server, self.thread, self.sock)] + (
                [(self.secure[1], self.secure[2], self.secure[0])] if self.secure else []):
            server.should_exit = True
            thread.join(timeout=5)
            sock.close()


def _message_page(title: str, sentence: str, language: str = "en") -> str:
    """A small page that says one thing in ``language``, with a way back to the code form."""
    title, sentence, back = (i18n.translate(text, language) for text in (title, sentence, "Type a code"))
    return (f'<!doctype html><html lang="{language}"><head><meta charset="utf-8"><meta name="viewport" '
            f'content="width=device-width, initial-scale=1"><title>{title}</title>'
            f'<link rel="stylesheet" href="/static/style.css"></head><body><main><section>'
            f'<p class="msg error">{sentence}</p><a href="/join">{back}</a></section></main></body></html>')


def _lan_address() -> str:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))      # no packet is sent: this only picks the outgoing interface
            return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
