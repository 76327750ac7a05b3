"""The end of a session: every table's record (as ``tabletop replay`` reads it) and the
standings, as JSON and CSV, written to one folder.

>>> from tabletop.room.standings import Standing
>>> print(standings_csv({"letter-dice": [Standing("Ann", 12, 1, 2, ["1", "2"])]}).strip())
game,player,points,wins,games,tables,room_unique
letter-dice,Ann,12,1,2,1 2,0
"""

from __future__ import annotations

import csv
import io
import json
import pathlib
from typing import Any, Iterable

from rules.record import record_of
from tabletop.room.standings import Standing


def standings_csv(board: dict[str, list[Standing]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["game", "player", "points", "wins", "games", "tables", "room_unique"])
    for game, lines in board.items():
        for s in lines:
            writer.writerow([game, s.player, s.points, s.wins, s.games, " ".join(s.tables), s.extra])
    return out.getvalue()


def write_export(folder: str | pathlib.Path, replicas: Iterable[Any], board: dict[str, list[Standing]]) -> list[str]:
    """Write ``standings.json``, ``standings.csv``, ``tables.csv`` and one record a table
    (``table-T-GAMEID.json``) into ``folder``; the files written."""
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    rows = []
    for replica in replicas:
        record = record_of(replica.game, replica.setup.get("board") or "", replica.setup.get("lexicon"))
        path = folder / f"table-{replica.table}-{replica.game_id}.json"
        path.write_text(json.dumps(record.to_json(), ensure_ascii=False, indent=1), encoding="utf-8")
        written.append(str(path))
        for player, points in replica.totals.items():
            rows.append([replica.table, replica.game_id, replica.setup.get("game"), player, points,
                         int(replica.game.over and replica.game.winner == player)])
    (folder / "standings.json").write_text(json.dumps({g: [s.to_json() for s in lines] for g, lines in board.items()},
                                                      ensure_ascii=False, indent=1), encoding="utf-8")
    (folder / "standings.csv").write_text(standings_csv(board), encoding="utf-8")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["table", "game_id", "game", "player", "points", "won"])
    writer.writerows(rows)
    (folder / "tables.csv").write_text(out.getvalue(), encoding="utf-8")
    return written + [str(folder / n) for n in ("standings.json", "standings.csv", "tables.csv")]
