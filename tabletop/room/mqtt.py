"""The one place that speaks to paho-mqtt: a client that reconnects by itself, tells which of
its QoS 1 messages the broker acknowledged, and hands received messages to a callback.

paho runs its network loop in its own thread; every callback here is called on it, so callers
keep them short (the link and the room queue the work for threads of their own).
"""

from __future__ import annotations

import logging
import ssl
import threading
from dataclasses import dataclass
from typing import Any, Callable

from tabletop.room.address import RoomAddress

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Credentials:
    """A broker user (``tabletop room init`` makes one per table and one for the room) and TLS."""

    username: str | None = None
    password: str | None = None
    ca_file: str | None = None           #: the CA that signed the broker's certificate (TLS)


class Client:
    """A paho client: ``connect()`` once; it reconnects on its own (1 to 5 s apart)."""

    def __init__(self, address: RoomAddress, client_id: str, *, credentials: Credentials = Credentials(),
                 clean_session: bool = True, will: tuple[str, bytes] | None = None,
                 on_message: Callable[[str, bytes], None] | None = None,
                 on_connect: Callable[[], None] | None = None, on_disconnect: Callable[[], None] | None = None,
                 on_acked: Callable[[int], None] | None = None, max_inflight: int = 100):
        import paho.mqtt.client as paho

        self.address = address
        self._client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id=client_id,
                                   clean_session=clean_session)
        self._client.reconnect_delay_set(1, 5)
        self._client.max_inflight_messages_set(max_inflight)
        self._client.max_queued_messages_set(0)
        if credentials.username:
            self._client.username_pw_set(credentials.username, credentials.password)
        if address.tls:
            self._client.tls_set(ca_certs=credentials.ca_file, cert_reqs=ssl.CERT_REQUIRED)
        if will is not None:
            self._client.will_set(will[0], will[1], qos=1, retain=True)
        self.connected = threading.Event()
        self._on_message, self._on_connect, self._on_disconnect = on_message, on_connect, on_disconnect
        self._on_acked = on_acked
        self._client.on_connect = self._connected
        self._client.on_disconnect = self._disconnected
        self._client.on_message = self._message
        self._client.on_publish = self._published
        self.refused_reason: str | None = None

    def connect(self) -> "Client":
        """Start connecting in the background (the broker may be away: it keeps trying)."""
        self._client.connect_async(self.address.host, self.address.port, keepalive=10)
        self._client.loop_start()
        return self

    def close(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()

    def _connected(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any = None) -> None:
        if getattr(reason, "is_failure", False):
            self.refused_reason = str(reason)
            log.warning("the broker %s refused us: %s", self.address, reason)
            return
        self.refused_reason = None
        self.connected.set()
        if self._on_connect:
            self._on_connect()

    def _disconnected(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any = None) -> None:
        self.connected.clear()
        if self._on_disconnect:
            self._on_disconnect()

    def _message(self, client: Any, userdata: Any, message: Any) -> None:
        if self._on_message:
            try:
                self._on_message(message.topic, bytes(message.payload))
            except Exception:            # a bad message must never stop the network loop
                log.exception("handling a message on %s failed", message.topic)

    def _published(self, client: Any, userdata: Any, mid: int, reason: Any = None, properties: Any = None) -> None:
        if self._on_acked:
            self._on_acked(mid)

    def subscribe(self, *topics: str) -> None:
        for topic in topics:
            self._client.subscribe(topic, qos=1)

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> int | None:
        """Publish at QoS 1; the message id the broker will acknowledge (``None``: not connected)."""
        info = self._client.publish(topic, payload, qos=1, retain=retain)
        return info.mid if info.rc == 0 else None
