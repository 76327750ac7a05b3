"""``tabletop room init`` then ``tabletop room serve --with-broker``: a one-laptop room from the
command line (its own mosquitto with the generated passwords and ACL), and a clear refusal when
the broker's port is taken."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import time
import subprocess
import sys
import tempfile
import urllib.request

import pytest

from tests.room.conftest import MOSQUITTO, free_port, wait_for


def _tabletop(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tabletop", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": os.getcwd()}, **kw)


@pytest.mark.slow
def test_room_init_then_serve_with_its_own_broker(tmp_path):
    if not os.path.exists(MOSQUITTO):
        pytest.skip("mosquitto is not installed")
    folder = tempfile.mkdtemp(prefix="tabletop-room-cli-")
    os.chmod(folder, 0o711)                     # a broker dropped to its own user passes through
    try:
        broker_port, page_port = free_port(), free_port()
        init = _tabletop("room", "init", f"{folder}/club", "club", "--tables", "3", "--port", str(broker_port))
        out, err = init.communicate(timeout=60)
        assert init.returncode == 0, err
        assert "table-T.toml" in out and os.path.exists(f"{folder}/club/table-3.toml")
        serve = _tabletop("room", "serve", "club", "--with-broker", f"{folder}/club",     # its port from the config
                          "--journal", str(tmp_path / "room.sqlite"),
                          "--host", "127.0.0.1", "--port", str(page_port))
        try:
            lines = []
            for line in serve.stdout:
                lines.append(line)
                if line.startswith("Never protected"):
                    break
            text = "".join(lines)
            assert "broker: mosquitto" in text and "Protected: only the room service" in text, text
            assert f"on 127.0.0.1:{broker_port}" in text

            def connected() -> bool:
                with urllib.request.urlopen(f"http://127.0.0.1:{page_port}/api/room", timeout=5) as answer:
                    return json.load(answer)["connected"]
            wait_for(connected, what="the room to log in to its broker")
            taken = _tabletop("room", "serve", "club", "--with-broker", f"{folder}/club", "--port", "0")
            _out, err = taken.communicate(timeout=60)
            assert taken.returncode != 0 and f"port {broker_port} is taken" in err
        finally:
            serve.send_signal(signal.SIGINT)
            serve.communicate(timeout=30)
        deadline = time.monotonic() + 15                # its broker went with it: nothing listens there
        while True:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", broker_port)) != 0:
                    break
            assert time.monotonic() < deadline, f"the broker still listens on {broker_port}"
            time.sleep(0.2)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
