"""A room of tables: many tables, one leaderboard, over MQTT (docs/room.md).

* :mod:`tabletop.room.address` — ``mqtt://HOST:PORT/ROOM``, read and checked
* :mod:`tabletop.room.topics` — the topic names under ``tabletop/ROOM/``
* :mod:`tabletop.room.messages` — what a table sends, checked before the room believes it
* :mod:`tabletop.room.commands` — what the room tells the tables, checked on both sides
* :mod:`tabletop.room.outbox` — the table's SQLite outbox: nothing lost while the link is down
* :mod:`tabletop.room.mqtt` — the one place that speaks to paho-mqtt
* :mod:`tabletop.room.link` — a table's link to its room (a session subscriber)
* :mod:`tabletop.room.received` — the room's own SQLite journal of what it received
* :mod:`tabletop.room.tables` — each table's game, rebuilt from the entries it sent
* :mod:`tabletop.room.standings` — the leaderboard across tables, per game
* :mod:`tabletop.room.pairings` — Swiss pairings and random seats for the next round
* :mod:`tabletop.room.duplicate` — duplicate play: one roll, one clue sequence for every table
* :mod:`tabletop.room.export` — every table's record and the standings as CSV and JSON
* :mod:`tabletop.room.service` — the room service: subscribe, check, journal, ask for gaps
* :mod:`tabletop.room.web` — the room page and the room host console
* :mod:`tabletop.room.broker` — mosquitto's password file, ACL and config (``tabletop room init``)

The room sits above the session and the pages (it rebuilds games with the session's set-up
helpers) and below ``tabletop.table``, which attaches a :class:`~tabletop.room.link.TableLink`
to a live table.
"""
