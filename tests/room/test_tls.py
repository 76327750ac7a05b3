"""TLS, the optional part of a room's security: ``room init --tls-cert/--tls-key`` and
``mqtts://``: a table's entries reach the room over an encrypted link, and the room says so."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

import pytest

from rules.game import GameSetup
from tabletop.room.address import RoomAddress
from tabletop.room.broker import init_room, load_credentials, protection
from tabletop.room.link import TableLink
from tabletop.room.service import RoomService
from tabletop.session.clock import SimClock
from tabletop.session.core import Session
from tabletop.session.journal import Journal

from tests.room.conftest import MOSQUITTO, Broker, free_port, wait_for


@pytest.mark.slow
def test_a_room_over_tls(tmp_path):
    if not os.path.exists(MOSQUITTO) or not shutil.which("openssl"):
        pytest.skip("needs mosquitto and openssl")
    folder = tempfile.mkdtemp(prefix="tabletop-room-tls-")
    os.chmod(folder, 0o711)                               # the broker's own user reaches the certificate
    try:
        cert, key = os.path.join(folder, "broker.crt"), os.path.join(folder, "broker.key")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
                        "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert],
                       check=True, capture_output=True)
        os.chmod(key, 0o644)                              # the broker's own user reads it
        port = free_port()
        files = init_room(os.path.join(folder, "room"), "club", ["1"], port=port, tls=(cert, key), bind="127.0.0.1")
        broker = Broker(tmp_path, port, conf=files.conf).start()
        address = RoomAddress.parse(f"mqtts://127.0.0.1:{port}/club")
        room = RoomService(address, str(tmp_path / "room.sqlite"),
                           credentials=load_credentials(files.credentials("room"), cert)).start()
        session = Session.create(Journal(tmp_path / "t.sqlite"), GameSetup("letter-dice", ("Ann", "Ben"), seed=1), "",
                                 clock=SimClock(), game_id="g1")
        link = TableLink(session, address, "1", credentials=load_credentials(files.credentials("1"), cert)).start()
        try:
            session.submit({"type": "roll", "faces": ["C", "A", "T", "S"]})
            wait_for(lambda: ("1", "g1") in room.replicas and room.replicas[("1", "g1")].applied_seq == 1)
        finally:
            link.close()
            room.close()
            broker.stop()
        assert any("encrypted" in line for line in protection(address.tls, True))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
