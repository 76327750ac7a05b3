"""What one guest on the network may hold of the table's web server: connections and time.

uvicorn (0.54, the h11 protocol) answers requests but bounds neither how many connections a
client may hold nor how long a request may take to arrive: 1,100 idle or half-sent connections
used to starve every page, seat and host request. :func:`guarded_protocol` makes the h11
protocol class the server runs, with :class:`ServerLimits`:

- **per client** (one IP address): at most ``per_client`` connections; one more is answered
  503 with a sentence and closed at once;
- **in total**: at most ``total``; one more first closes the oldest connection that has not yet
  sent a whole request head (an idle or half-sent one: a browser sends its head at once), and
  is refused only when every connection is busy;
- **the head** of each request (a new connection's, and the next one on a kept-alive connection)
  must arrive within ``header_timeout`` seconds, else the connection is closed;
- **the body** must keep arriving: no ``body_idle`` seconds without a byte, and all of it within
  ``body_timeout``, else 408 and the connection is closed (the route sees the client gone);
- every accepted socket has ``TCP_NODELAY`` (a response's head and body leave at once instead
  of waiting for the delayed ACK: 44 ms on every kept-alive request otherwise).

>>> limits = ServerLimits(per_client=2)
>>> limits.per_client, limits.total
(2, 512)
"""

from __future__ import annotations

import asyncio
import logging
import socket
from dataclasses import dataclass
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ServerLimits:
    """The bounds :func:`guarded_protocol` enforces (counts; seconds)."""

    per_client: int = 64
    total: int = 512
    header_timeout: float = 10.0
    body_idle: float = 10.0
    body_timeout: float = 120.0


def nodelay(sock: Any) -> None:
    """Send small writes at once on ``sock`` (a TCP socket; anything else is left alone)."""
    if isinstance(sock, socket.socket) and sock.family in (socket.AF_INET, socket.AF_INET6):
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            pass


_last_said: dict[str, float] = {}
#: the same warning is logged at most once in this many seconds (a flood must not flood the log too)
QUIET_FOR = 10.0


def _quietly(now: float, message: str, *args: Any) -> None:
    """Log ``message`` unless the same one was logged less than :data:`QUIET_FOR` seconds ago."""
    key = message % args
    if now - _last_said.get(key, -QUIET_FOR) >= QUIET_FOR:
        _last_said[key] = now
        if len(_last_said) > 1000:
            _last_said.clear()
        log.warning(message + " (said at most once in %.0f s)", *args, QUIET_FOR)


def _refusal(status: int, reason: str, sentence: str) -> bytes:
    body = sentence.encode()
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: text/plain; charset=utf-8\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n").encode() + body


def guarded_protocol(limits: ServerLimits) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol, bounded by ``limits`` (pass it as ``uvicorn.Config(http=...)``)."""

    class GuardedH11Protocol(H11Protocol):
        _limits = limits

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            nodelay(transport.get_extra_info("socket"))
            self._deadline: asyncio.TimerHandle | None = None
            self._body_started = 0.0
            self._head_pending = True
            self._waiting_since = self.loop.time()
            ip = self.client[0] if self.client else None
            mine = sum(1 for c in self.connections if ip is not None and (getattr(c, "client", None) or ("",))[0] == ip)
            if mine > self._limits.per_client:
                self._refuse(503, "Service Unavailable",
                             f"Too many connections from {ip}: at most {self._limits.per_client} at once.")
                return
            if len(self.connections) > self._limits.total and not self._evict_idle():
                self._refuse(503, "Service Unavailable",
                             f"The table is serving {self._limits.total} connections: try again in a moment.")
                return
            self._arm(self._limits.header_timeout, self._head_late)

        # -- the bounds ------------------------------------------------------------------------
        def _refuse(self, status: int, reason: str, sentence: str) -> None:
            _quietly(self.loop.time(), "refused a connection: %s", sentence)
            self.transport.write(_refusal(status, reason, sentence))
            self.transport.close()

        def _evict_idle(self) -> bool:
            """Close the oldest connection still waiting for its request head; whether there was one."""
            idle = [c for c in self.connections if isinstance(c, GuardedH11Protocol) and c is not self
                    and c._head_pending and not c.transport.is_closing()]
            if not idle:
                return False
            oldest = min(idle, key=lambda c: c._waiting_since)
            _quietly(self.loop.time(), "closed an idle connection from %s: %d connections at once",
                     oldest.client[0] if oldest.client else "?", len(self.connections))
            oldest.transport.close()
            return True

        def _arm(self, seconds: float, callback: Any) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(seconds, callback)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _ours(self) -> bool:
            return not self.transport.is_closing() and self.transport.get_protocol() is self

        def _head_late(self) -> None:
            if self._ours() and self._head_pending:
                self.transport.close()

        def _body_late(self) -> None:
            cycle = self.cycle
            if not self._ours() or cycle is None or not cycle.more_body:
                return
            if self.flow.read_paused:               # the route is slow to take what came: not the client's fault
                self._arm(self._limits.body_idle, self._body_late)
                return
            if not cycle.response_started:
                cycle.response_started = True        # the route's own answer, if any, is dropped
                self.transport.write(_refusal(408, "Request Timeout", "The request's body did not arrive in time."))
            self.transport.close()

        # -- uvicorn's hooks -------------------------------------------------------------------
        def data_received(self, data: bytes) -> None:
            before = self.cycle
            super().data_received(data)
            if not self._ours():
                return
            cycle = self.cycle
            if cycle is not before and cycle is not None:        # a new request's head arrived
                self._head_pending = False
                self._body_started = self.loop.time()
            if cycle is not None and not self._head_pending and cycle.more_body:
                left = self._body_started + self._limits.body_timeout - self.loop.time()
                self._arm(max(0.0, min(self._limits.body_idle, left)), self._body_late)
            elif not self._head_pending:
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self._ours():                      # the next request's head, if any, must not dawdle
                self._head_pending, self._waiting_since = True, self.loop.time()
                self._arm(self._limits.header_timeout, self._head_late)

        def handle_websocket_upgrade(self, event: Any) -> None:
            self._disarm()
            self._head_pending = False
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return GuardedH11Protocol
