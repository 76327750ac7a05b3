"""A real mosquitto on 127.0.0.1, on a free port, started by the tests themselves (never a
system service), and helpers to wait for the room."""

from __future__ import annotations

import os
import pathlib
import shutil
import signal
import socket
import subprocess
import time
from typing import Callable

import pytest

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Broker:
    """mosquitto on loopback; ``kill()`` is a SIGKILL, ``start()`` again on the same port."""

    def __init__(self, folder: pathlib.Path, port: int, conf: pathlib.Path | None = None):
        self.folder, self.port = folder, port
        self.conf = conf or folder / "mosquitto.conf"
        if conf is None:
            self.conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\nmax_queued_messages 100000\n"
                                 "max_inflight_messages 100\nmessage_size_limit 2000000\n")
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> "Broker":
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not start")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=5)


@pytest.fixture
def broker(tmp_path):
    if not os.path.exists(MOSQUITTO):
        pytest.skip("mosquitto is not installed (apt-get install mosquitto)")
    b = Broker(tmp_path, free_port()).start()
    yield b
    b.stop()


def wait_for(check: Callable[[], object], seconds: float = 20.0, what: str = "the room") -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")
