"""Phones as buzz-in buttons, fair by measurement.

A seat page keeps estimating the offset between its own clock and the table clock over a
WebSocket, NTP-style (:class:`ClockSync`: the sample with the shortest round trip wins, its
offset is the server's time minus the midpoint of the round trip), and stamps a press on the
phone the moment the finger lands, converted to table time. The press then goes through the
same arbitration as the GPIO and serial buttons (:class:`~tabletop.session.devices.presses.PressOrderer`,
one :class:`rules.arbitration.Arbiter` per question): an earlier press that arrives later still
wins, as long as it arrives within :data:`PHONE_HOLD` of the first one — the longest extra
delay one phone may have over another on a home network.

>>> sync = ClockSync()
>>> for client_sent, server, client_got in [(0.0, 10.06, 0.1), (1.0, 11.02, 1.04), (2.0, 12.2, 2.4)]:
...     sync.sample(client_sent, server, client_got)
>>> round(sync.offset, 3), round(sync.round_trip, 3)
(10.0, 0.04)
"""

from __future__ import annotations

import math
from collections import deque

from tabletop.session.core import Session
from tabletop.session.devices.presses import PressOrderer

#: how long a phone press waits for an earlier press from a slower phone (seconds)
PHONE_HOLD = 0.4
#: a press stamped further back than this (or in the future) is taken at its arrival time
MAX_STAMP_AGE = 3.0


class ClockSync:
    """The offset (table clock minus phone clock) from round trips; the shortest of the last
    ``keep`` wins, since queueing delay only ever lengthens a round trip."""

    def __init__(self, keep: int = 12):
        self._samples: deque[tuple[float, float]] = deque(maxlen=keep)

    def sample(self, sent: float, server: float, received: float) -> None:
        """One round trip: the phone sent at ``sent``, the table answered ``server``, back at ``received``."""
        rtt = received - sent
        if rtt >= 0 and math.isfinite(server):
            self._samples.append((rtt, server - (sent + received) / 2))

    @property
    def round_trip(self) -> float:
        return min(self._samples)[0] if self._samples else math.inf

    @property
    def offset(self) -> float | None:
        return min(self._samples)[1] if self._samples else None


class PhoneBuzzers:
    """Buzz-in presses from the seat pages, stamped on the phones, ordered on the table."""

    def __init__(self, session: Session, hold: float = PHONE_HOLD):
        self.session = session
        self.orderer = PressOrderer(session, "phone", hold=hold)
        self.presses = 0

    def press(self, seat: str, stamped: float | None) -> float:
        """``seat`` pressed at table time ``stamped`` (the phone's estimate); returns the stamp used.

        A stamp that is not plausible (from the future, or older than :data:`MAX_STAMP_AGE`:
        a phone whose clock estimate is off) is replaced by the arrival time.
        """
        now = self.session.clock.now()
        if stamped is None or not math.isfinite(stamped) or not now - MAX_STAMP_AGE <= stamped <= now + 0.05:
            stamped = now
        self.presses += 1
        self.orderer.add(seat, round(stamped * 1_000_000), self.session.setup.players.index(seat))
        return stamped

    def drain(self) -> None:
        self.orderer.drain()

    def close(self) -> None:
        self.orderer.close()
