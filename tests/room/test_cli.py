"""The command line of a room: ``play --room/--table`` checked before anything is journalled,
the config's ``[room]``, ``room init``'s files and what it prints; the export at the end."""

from __future__ import annotations

import argparse
import json

import pytest

from tabletop.commands.play import room_options
from tabletop.config import load_config
from tabletop.errors import UserError
from tabletop.room.export import write_export
from tabletop.room.standings import leaderboard
from tabletop.room.tables import TableReplica


def _args(**kw):
    return argparse.Namespace(**{"room": None, "table": None, "room_credentials": None, **kw})


def test_play_checks_the_room_before_it_journals_anything():
    config = load_config(None, search=False)
    assert room_options(_args(room="mqtt://pi.local/club", table="3"), config)["table"] == "3"
    with pytest.raises(UserError, match="needs its name: --table 3"):
        room_options(_args(room="mqtt://pi.local/club"), load_config(None, search=False))
    with pytest.raises(UserError, match="mqtt://HOST:PORT/ROOM"):
        room_options(_args(room="http://pi.local/club", table="3"), load_config(None, search=False))
    with pytest.raises(UserError, match="give the room too"):
        room_options(_args(table="3"), load_config(None, search=False))
    with pytest.raises(UserError, match="table name is 1-40"):
        room_options(_args(room="mqtt://pi.local/club", table="3/../4"), load_config(None, search=False))


def test_the_config_names_the_room(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[room]\nurl = "mqtt://10.0.0.2:1883/class-4b"\ntable = "2"\n')
    config = load_config(path)
    assert room_options(_args(), config) == {"url": "mqtt://10.0.0.2:1883/class-4b", "table": "2",
                                             "credentials": "", "ca_file": ""}
    path.write_text('[room]\nbroker = "x"\n')
    with pytest.raises(UserError, match="unknown key 'broker' in \\[room\\]"):
        load_config(path)


def test_the_export_holds_every_tables_record_and_the_standings(tmp_path):
    setup = {"game": "letter-dice", "players": ["Ann", "Ben"], "board": "", "seed": 1}
    replica = TableReplica("1", "g1", setup)
    replica.offer({"seq": 1, "kind": "event", "status": "accepted",
                   "body": {"type": "roll", "faces": ["C", "A", "T", "S"], "t": 1.0}})
    files = write_export(tmp_path / "out", [replica], leaderboard([replica]))
    record = json.loads((tmp_path / "out" / "table-1-g1.json").read_text())
    assert record["game"] == "letter-dice" and len(record["events"]) == 1
    assert (tmp_path / "out" / "standings.csv").read_text().splitlines()[0].startswith("game,player,points")
    assert len(files) == 4
    from rules.record import Record, replay
    from tabletop.session.core import load_game_parts
    board, lexicon = load_game_parts(setup)
    assert replay(Record.from_json(record), board, lexicon).totals == replica.totals


def test_doctor_says_which_room_the_table_joins(broker, tmp_path):
    from tabletop.commands.doctor import MISSING, OK, OPTIONAL, _room
    config = load_config(None, search=False)
    assert _room(config)[0] == OPTIONAL
    config["room"].update(url=f"{broker.url}/club", table="3")
    level, text = _room(config)
    assert level == OK and "table 3 of mqtt://127.0.0.1" in text
    broker.kill()
    assert _room(config)[0] == OPTIONAL and "outbox catches up" in _room(config)[1]
    config["room"]["table"] = ""
    assert _room(config)[0] == MISSING
