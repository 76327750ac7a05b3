"""What the pages show, and what each may not: the public scoreboard, the host's console, a
seat's own page, and the board's layers.

The secrecy rules live here, in one place:

* :func:`scoreboard` is public: nothing in it is secret (no card answers, no hidden entries,
  no hand of cards).
* :func:`seat` adds what only that seat may see: its own entries in the host's windows (the
  others' after the deadline), the reasons its own private entries were refused (a sealed
  word, its rack, its cards: the public log only says that they were) and the game's private
  view of the seat (:meth:`tabletop.games.table.TableGame.seat_view`).
* :func:`host` adds the actions, every entry, every private refusal and the pending camera reads.
  A seat's page offers only the actions the rules give that seat
  (:meth:`tabletop.games.table.TableGame.seat_actions`: SP Classic's asker, with her card's clues).

Each takes the session (:class:`tabletop.session.core.Session`) and reads it under its lock.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from rules.squares import Square
from rules.word_grid_dice import ALPHABETS

if TYPE_CHECKING:
    from rules.board import Board
    from rules.game import Action, Game
    from tabletop.session.core import Session


def title(game: "Game") -> str:
    """The game's name for people: 'eXtraDICTION SP (classic)'."""
    variant = getattr(game, "variant", None) or getattr(game, "level", None)
    label = str(variant).replace("level", "Level ") if variant else ""
    return f"{game.title}{f' ({label})' if label else ''}"


def scoreboard(session: "Session") -> dict[str, Any]:
    """The public scoreboard: nothing here is secret (no card answers, no hidden entries)."""
    with session.lock:
        game, state = session.game, session.game.state()
        last = game.turns[-1] if game.turns else None
        for turn in reversed(game.turns):
            if not turn.removed:
                last = turn
                break
        view = {
            "game_id": session.game_id, "game": session.setup.game, "title": title(game),
            "language": session.setup.language,          # the pages' language until a page picks one
            "variant": getattr(game, "variant", None) or getattr(game, "level", None),
            "players": list(session.setup.players), "totals": game.totals,
            "turn": game.whose_turn(), "over": game.over, "winner": game.winner if game.over else None,
            "now": session.clock.now(), "paused": session.paused, "grid": state.get("grid"),
            "timers": [d.to_json() for d in game.deadlines()],
            "last": {"text": last.text, "player": last.player, "squares": [list(s) for s in last.new_squares]}
            if last else None,
            "turns": [t.to_json() for t in game.turns],
            "log": list(session.log[-12:]), "windows": [w.to_json() for w in session.windows()],
            "events": len(game.events), "devices": dict(session.devices), "read": session.board_read,
        }
        view.update(session.table.summary(game))
        view["status"] = session.table.status(game)
        return view


def host(session: "Session") -> dict[str, Any]:
    """The host's console: the scoreboard plus the actions, every entry and the pending camera reads."""
    with session.lock:
        view = scoreboard(session)
        clue = None
        events = [e for e in session.game.events if e.type == "clue"]
        if events:
            clue = events[-1].to_json()
        view["clue"] = clue
        view["actions"] = buttons(session, session.game.actions())
        view["entries"] = session.entries_for(None)
        view["can_undo"] = bool(session.applied)
        view["deck"] = session.table.uses_clue_deck          # the "Draw a card" button applies
        # the words their writers may settle on their phones reach the host late, or disputed
        view["pending_reads"] = [{**read.event, "index": i, "read": read.seq, "disputed": read.disputed}
                                 for i, read in session.camera.for_host()]
        view["waiting_for_writers"] = len(session.pending_reads) - len(view["pending_reads"])
        view["private_log"] = [dict(line) for line in session.private_log[-12:]]
        view["turned_away"] = dict(session.entry_windows.turned_away)   # seats slowed down for refused entries
        view["board"] = printed_board(session.board, view["grid"])
        return view


def buttons(session: "Session", actions: "Iterable[Action]") -> list[dict[str, Any]]:
    """The buttons for ``actions``: each action's key, label and event; the clue deck's card
    becomes one button per clue (``clue:N``, drawn by the ``draw`` command), for the asker to pick."""
    out = [{**a.to_json(), "action": None, "args": {}} for a in actions]
    at = next((i for i, a in enumerate(out) if a["key"] == "clue"), None)
    if at is not None:                 # the deck's card: one button per clue, the asker picks
        drawn = session.next_clue() if session.table.uses_clue_deck else None
        asker = out[at]["event"]["player"]
        if drawn is None:
            out[at].update(event=None, action="draw", args={})
        else:
            card, _ = drawn
            out[at:at + 1] = [
                {"key": f"clue:{i}", "label": f"{asker} reads card {card.id}: {c.answer.lower()} — {c.card_text()}",
                 "event": None, "action": "draw", "args": {"clue": i}} for i, c in enumerate(card.clues)]
    return out


def seat(session: "Session", seat: str, *, buzzers: bool, scan: bool) -> dict[str, Any]:
    """What ``seat``'s own page shows: the public state it needs, its windows and entries, and the
    game's private view of that seat (``buzzers``: phones can buzz in; ``scan``: the scan button)."""
    with session.lock:
        view = scoreboard(session)
        board = session.board
        return {"seat": seat, "language": view["language"], "now": view["now"], "windows": [w for w in view["windows"] if seat in w["seats"]],
                "entries": session.entries_for(seat),
                "turn": view["turn"], "totals": view["totals"], "over": view["over"], "log": view["log"][-5:],
                "title": view["title"], "phase": view.get("phase"), "clue": view.get("clue"),
                "hands": view.get("hands", []), "answering": view.get("answering"),
                # the Buzz button shows while answers are open, enabled only while a press counts
                "buzz": buzzers and view.get("phase") == "answering" and seat != view.get("asker")
                and seat != view.get("answering"),
                "buzz_ready": buzzers and session.table.buzz(session.game, seat) is not None,
                "actions": [{"key": a["key"], "label": a["label"]}
                            for a in buttons(session, session.table.seat_actions(session.game, seat))],
                "board": printed_board(board, view["grid"]),
                "alphabet": ALPHABETS.get(session.setup.language, ALPHABETS["en"]),  # the child's letter buttons
                "squares": view.get("squares"), "grid": view["grid"] if view.get("squares") else None,
                "paused": view["paused"], "dice": view.get("dice"), "sheet": view.get("sheet"),
                "free_rows": (view.get("free_rows") or {}).get(seat), "reveal": view.get("reveal"),
                "scan": scan, "readings": [_offer(session, read) for read in session.camera.for_writer(seat)],
                "private_log": [{k: v for k, v in line.items() if k != "to"}
                                for line in session.private_log if line["to"] == seat][-5:],
                **session.table.seat_view(session.game, seat)}


def _offer(session: "Session", read: Any) -> dict[str, Any]:
    """A read of a seat's own word, as its phone offers it: the readings as buttons, the square as printed."""
    event = read.event
    where = session.board.label(Square(event["row"], event["col"])) if session.board is not None else ""
    return {"read": read.seq, "readings": list(read.readings or (event.get("text"),)), "where": where,
            "dir": event.get("dir")}


#: what a printed mark means (the marks layer, docs/boards.md); '.' is a plain square
MARKS = {"!": "chance", "*": "star", "D": "diamond", "#": "blocked"}


def printed_board(board: "Board | None", grid: Any = None) -> dict[str, Any] | None:
    """The board as printed, for the pages' tap grids: its size, the printed values (one digit a
    square, ``0`` none) and marks (``.`` none, see :data:`MARKS`) one string a row, the zones the
    print outlines, a legend of the marks it has, and the letters on it now (``grid``: the game's
    ``state()["grid"]``, ``.`` an empty square, a small letter a blank tile); ``None`` without a board.

    >>> from rules.board import parse_board
    >>> b = parse_board('rows = 1\\ncols = 3\\n[layers]\\nvalues = ["301"]\\nzones = ["aab"]\\nmarks = [".!."]')
    >>> printed = printed_board(b, ["C.."])
    >>> printed["values"], printed["marks"], printed["legend"], printed["letters"]
    (['301'], ['.!.'], {'!': 'chance'}, ['C..'])
    """
    if board is None:
        return None
    values = board.layers.get("values") or ("0" * board.cols,) * board.rows
    marks = board.layers.get("marks") or ("." * board.cols,) * board.rows
    outline = next((board.layers[name] for name in ("zones", "quadrants") if name in board.layers), None)
    fits = isinstance(grid, list) and len(grid) == board.rows and all(
        isinstance(row, str) and len(row) == board.cols for row in grid)
    return {"name": board.name, "rows": board.rows, "cols": board.cols, "values": list(values),
            "marks": list(marks), "zones": list(outline) if outline else None,
            "legend": {mark: kind for mark, kind in MARKS.items() if any(mark in row for row in marks)},
            "letters": list(grid) if fits else None}


def board_layers(board: "Board | None") -> dict[str, Any]:
    """The board's size and every layer it has (values, zones, marks, letters, colors...), one
    string a row; ``{}`` for a game without a board.

    >>> board_layers(None)
    {}
    """
    if board is None:
        return {}
    data: dict[str, Any] = {"name": board.name, "rows": board.rows, "cols": board.cols}
    data.update({name: list(rows) for name, rows in board.layers.items()})
    data.setdefault("marks", ["." * board.cols] * board.rows)
    return data
