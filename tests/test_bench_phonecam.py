"""The emulated Wi-Fi link of ``tabletop bench phonecam``: it delays what passes by its one-way
delay each way, keeps the bytes and their order through lost packets (TCP resends them), and
throttles to its bandwidth."""

from __future__ import annotations

import socket
import threading
import time

from tabletop.benchmarks.phonecam import LinkProfile, WifiLink


def _echo_server() -> tuple[socket.socket, int]:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def serve() -> None:
        conn, _ = server.accept()
        with conn:
            while data := conn.recv(65536):
                conn.sendall(data)

    threading.Thread(target=serve, daemon=True).start()
    return server, server.getsockname()[1]


def _round_trip(port: int, payload: bytes) -> tuple[bytes, float]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        start = time.perf_counter()
        conn.sendall(payload)
        got = b""
        while len(got) < len(payload):
            got += conn.recv(65536)
        return got, time.perf_counter() - start


def test_the_link_delays_each_way_and_keeps_every_byte_in_order_through_losses():
    server, port = _echo_server()
    link = WifiLink(port, LinkProfile("test", "test", delay=0.05, jitter=0.0, loss=0.2, rto=0.1), seed=3).start()
    try:
        payload = bytes(range(256)) * 2000                      # 512 KB: hundreds of packets, many "lost"
        got, seconds = _round_trip(link.port, payload)
        assert got == payload
        assert seconds >= 0.1                                   # 50 ms each way at least
        assert link.resent > 0
    finally:
        link.close()
        server.close()


def test_the_link_throttles_to_its_bandwidth():
    server, port = _echo_server()
    link = WifiLink(port, LinkProfile("slow", "slow", bandwidth=8e6)).start()     # 1 MB/s
    try:
        got, seconds = _round_trip(link.port, b"x" * 300_000)
        assert len(got) == 300_000 and seconds >= 0.3           # 0.3 MB each way through a 1 MB/s link
    finally:
        link.close()
        server.close()
