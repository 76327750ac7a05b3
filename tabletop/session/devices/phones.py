"""Phones as buzz-in buttons, fair by measurement, and bounded against a cheater.

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

A stamp is the phone's *claim*, and a cheater can send any number. The table believes a claim
only as far as it measured that phone itself (:class:`RoundTrips`: the table sends probes on the
phone's clock socket and times the echoes, which a phone can slow down but never speed up): a
press may claim to have been made at most :meth:`RoundTrips.allowance` before it arrived (half
its fastest recent round trip, which is what an honest stamp claims on a steady link, plus the
spread of its round trips, plus :data:`SLACK`; never more than :data:`MAX_CLAIM`), never before
the question opened, never in the future. Any other press is ordered by its arrival, and the
host is told. So a cheater gains at most its allowance minus its real one-way delay over its
real press: its link's jitter and :data:`SLACK` (about 10-60 ms on home Wi-Fi, see ``tabletop
bench buzzers``), :data:`MAX_CLAIM` at worst (a phone that slows its echoes on purpose).

>>> trips = RoundTrips()
>>> trips.allowance() is None                  # never measured: the stamp is not believed
True
>>> for rtt in (0.030, 0.012, 0.020):
...     trips.add(rtt)
>>> round(trips.allowance(), 3)                # 0.012 / 2 + (0.030 - 0.012) + SLACK
0.034
"""

from __future__ import annotations

import itertools
import logging
import math
import threading
import time
from collections import deque
from dataclasses import dataclass

from tabletop.session.core import Session
from tabletop.session.devices.presses import PressOrderer

log = logging.getLogger(__name__)

#: how long a phone press waits for an earlier press from a slower phone (seconds)
PHONE_HOLD = 0.4
#: the most a press may ever claim to predate its arrival, however slow its phone measured (seconds)
MAX_CLAIM = 0.3
#: added to every phone's measured allowance: the table's own scheduling and timer resolution (seconds)
SLACK = 0.010
#: how far in the future (after its arrival) a stamp may be: the table clock's rounding (seconds)
FUTURE_SLACK = 0.005
#: how many of a phone's latest probe round trips count
KEEP_TRIPS = 12


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


class RoundTrips:
    """One phone's round trips as the *table* timed them (probe sent, echo back), in seconds.

    Only the table's clock is used, so a phone cannot make them shorter than they are; it can
    make them longer (echoing late), which only widens its allowance up to :data:`MAX_CLAIM`.
    """

    def __init__(self, keep: int = KEEP_TRIPS):
        self._trips: deque[float] = deque(maxlen=keep)
        self._lock = threading.Lock()

    def add(self, seconds: float) -> None:
        """One probe's round trip (ignored unless a finite, non-negative number)."""
        if math.isfinite(seconds) and seconds >= 0:
            with self._lock:
                self._trips.append(seconds)

    def allowance(self) -> float | None:
        """How long before its arrival a press from this phone may claim to have been made.

        An honest stamp claims about half a round trip: the press's way up, less the phone's
        offset error, which is half the difference between the ways up and down of its fastest
        ping. So: half the fastest recent round trip, plus their spread (a slower way up than
        then), plus :data:`SLACK`; at most :data:`MAX_CLAIM`; ``None`` while nothing has been measured.
        """
        with self._lock:
            if not self._trips:
                return None
            fastest, slowest = min(self._trips), max(self._trips)
            return min(MAX_CLAIM, fastest / 2 + (slowest - fastest) + SLACK)


class Probes:
    """The probes the table sent on one phone's clock socket, waiting for their echoes.

    >>> trips = RoundTrips(); probes = Probes(trips, clock=iter([1.0, 1.025]).__next__)
    >>> probe = probes.send()
    >>> probes.echo(probe + 1), probes.echo(probe)   # an echo of a probe never sent counts for nothing
    (False, True)
    >>> round(trips.allowance(), 4)
    0.0225
    """

    def __init__(self, trips: RoundTrips, clock=time.monotonic, keep: int = 4):
        self.trips, self._clock, self._keep = trips, clock, keep
        self._sent: dict[int, float] = {}
        self._ids = itertools.count(1)

    def send(self) -> int:
        """A new probe's number (send it as ``{"p": number}``; the page echoes it at once)."""
        probe = next(self._ids)
        self._sent[probe] = self._clock()
        while len(self._sent) > self._keep:             # a phone that never echoes keeps at most ``keep``
            del self._sent[min(self._sent)]
        return probe

    def echo(self, probe: object) -> bool:
        """The phone echoed ``probe``: its round trip counts if the table sent it and it is still waiting."""
        if isinstance(probe, bool) or not isinstance(probe, int) or probe not in self._sent:
            return False
        self.trips.add(self._clock() - self._sent.pop(probe))
        return True


class NoQuestionOpen(Exception):
    """A buzz when no question is open to this seat: nothing was recorded."""


@dataclass(frozen=True)
class Stamp:
    """The table time a press is ordered by, and why a phone's own stamp was not believed (or ``""``)."""

    t: float
    doubted: str = ""


def judge_stamp(stamped: float | None, arrived: float, allowance: float | None,
                opened: float | None) -> Stamp:
    """The time a press is ordered by: the phone's ``stamped`` claim when it is within what the
    table measured for that phone, else the arrival time (with the reason).

    >>> judge_stamp(9.98, 10.0, 0.03, 5.0)
    Stamp(t=9.98, doubted='')
    >>> judge_stamp(7.1, 10.0, 0.03, 5.0).doubted
    'its stamp claims 2900 ms before it arrived; its phone measured at most 30 ms'
    >>> judge_stamp(4.99, 5.01, 0.03, 5.0).doubted
    'its stamp is before the question opened'
    """
    if stamped is None or not math.isfinite(stamped):
        return Stamp(arrived, "it carried no stamp")
    if allowance is None:
        return Stamp(arrived, "its phone's clock has not been measured yet")
    if stamped > arrived + FUTURE_SLACK:
        return Stamp(arrived, f"its stamp is {(stamped - arrived) * 1000:.0f} ms in the future")
    if opened is not None and min(stamped, arrived) < opened:
        return Stamp(arrived, "its stamp is before the question opened")
    if stamped < arrived - allowance:
        return Stamp(arrived, f"its stamp claims {(arrived - stamped) * 1000:.0f} ms before it arrived; "
                              f"its phone measured at most {allowance * 1000:.0f} ms")
    return Stamp(min(stamped, arrived))


class PhoneBuzzers:
    """Buzz-in presses from the seat pages, stamped on the phones, ordered on the table."""

    def __init__(self, session: Session, hold: float = PHONE_HOLD):
        self.session = session
        self.orderer = PressOrderer(session, "phone", hold=hold, opens_at=self._opened_us)
        self.presses = self.doubted = 0
        self.trips: dict[str, RoundTrips] = {seat: RoundTrips() for seat in session.setup.players}

    def _opened_us(self) -> int | None:
        opened = self.session.table.buzz_opened_at(self.session.game)
        return None if opened is None else round(opened * 1_000_000)

    def probes(self, seat: str) -> Probes:
        """The probes for ``seat``'s clock socket (each socket has its own, feeding the seat's round trips)."""
        return Probes(self.trips[seat])

    def press(self, seat: str, stamped: float | None) -> Stamp:
        """``seat`` pressed at table time ``stamped`` (the phone's claim); returns the stamp used.

        :class:`NoQuestionOpen` when the press means nothing now (no question open, or ``seat``
        asked it). A claim outside what the table measured for this phone (:func:`judge_stamp`)
        is replaced by the arrival time, and the host is told (the ``phones`` device status).
        """
        game = self.session.game
        opened = self.session.table.buzz_opened_at(game)
        if opened is None or self.session.table.buzz(game, seat) is None:
            raise NoQuestionOpen("No question is open to you: your press was not recorded.")
        stamp = judge_stamp(stamped, self.session.clock.now(), self.trips[seat].allowance(), opened)
        self.presses += 1
        if stamp.doubted:
            self.doubted += 1
            note = f"{seat}'s press was ordered by its arrival: {stamp.doubted}."
            log.warning("%s", note)
            self.session.set_device("phones", note)
        self.orderer.add(seat, round(stamp.t * 1_000_000), self.session.setup.players.index(seat))
        return stamp

    def drain(self) -> None:
        self.orderer.drain()

    def close(self) -> None:
        self.orderer.close()
