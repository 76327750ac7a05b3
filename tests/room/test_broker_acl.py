"""``tabletop room init``'s password file and ACL, on a real mosquitto: a table writes only
under its own topic, only the room writes commands, strangers get nothing; and a room served
with them works end to end."""

from __future__ import annotations

import os
import shutil
import tempfile
import threading

import paho.mqtt.client as paho
import pytest

from tabletop.room.broker import init_room, load_credentials, protection
from tabletop.room.topics import Topics

from tests.room.conftest import MOSQUITTO, Broker, free_port, wait_for


@pytest.fixture
def secured(tmp_path):
    if not os.path.exists(MOSQUITTO):
        pytest.skip("mosquitto is not installed")
    port = free_port()
    folder = tempfile.mkdtemp(prefix="tabletop-room-")   # under /tmp: a broker dropped to its own user can reach it
    files = init_room(folder, "club", ["1", "2"], port=port, bind="127.0.0.1")
    broker = Broker(tmp_path, port, conf=files.conf).start()
    yield broker, files
    broker.stop()
    shutil.rmtree(folder, ignore_errors=True)


def _client(port: int, credentials=None, name: str = "c") -> tuple[paho.Client, list[tuple[str, bytes]], threading.Event]:
    got: list[tuple[str, bytes]] = []
    connected = threading.Event()
    client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id=name)
    if credentials is not None:
        client.username_pw_set(credentials.username, credentials.password)
    client.on_message = lambda c, u, m: got.append((m.topic, bytes(m.payload)))
    client.on_connect = lambda c, u, f, rc, p=None: (not rc.is_failure) and connected.set()
    client.connect("127.0.0.1", port)
    client.loop_start()
    return client, got, connected


def test_the_acl_keeps_each_table_to_its_own_topic_and_commands_to_the_room(secured):
    broker, files = secured
    topics = Topics("club")
    room, room_got, room_up = _client(broker.port, load_credentials(files.credentials("room")), "room")
    table1, table1_got, t1_up = _client(broker.port, load_credentials(files.credentials("1")), "t1")
    stranger, _, stranger_up = _client(broker.port, None, "stranger")
    try:
        wait_for(lambda: room_up.is_set() and t1_up.is_set(), what="the clients")
        room.subscribe("tabletop/club/#", qos=1)
        table1.subscribe(topics.command_all, qos=1)
        table1.subscribe(topics.command_for("2"), qos=1)           # not its own: the ACL hides it
        import time
        time.sleep(0.3)
        table1.publish(topics.entries("1"), b"own", qos=1).wait_for_publish(5)
        table1.publish(topics.entries("2"), b"forged", qos=1).wait_for_publish(5)
        table1.publish(topics.command_all, b"forged command", qos=1).wait_for_publish(5)
        room.publish(topics.command_all, b"room command", qos=1).wait_for_publish(5)
        room.publish(topics.command_for("2"), b"for table 2", qos=1).wait_for_publish(5)
        wait_for(lambda: (topics.entries("1"), b"own") in room_got and
                 (topics.command_all, b"room command") in table1_got, what="the allowed messages")
        time.sleep(0.5)
        assert (topics.entries("2"), b"forged") not in room_got
        assert (topics.command_all, b"forged command") not in room_got + table1_got
        assert (topics.command_for("2"), b"for table 2") not in table1_got
        assert not stranger_up.is_set()                              # no password: refused
    finally:
        for c in (room, table1, stranger):
            c.loop_stop()
            c.disconnect()


def test_credentials_files_are_private_and_the_room_says_what_it_protects(secured):
    _broker, files = secured
    for path in (files.broker_folder / "passwd", files.broker_folder / "acl", files.credentials("room"),
                 files.credentials("1"), files.conf):
        assert path.stat().st_mode & 0o077 == 0, path
    assert files.folder.stat().st_mode & 0o777 == 0o711          # the broker passes through, lists nothing
    said = " ".join(protection(tls=False, authenticated=True))
    assert "Protected: only the room service can send commands" in said and "clear text" in said
    assert "encrypted" in " ".join(protection(tls=True, authenticated=True))
