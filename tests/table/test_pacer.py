"""The demo's pace is kept against a deadline: slow device steps are made up, within a bound."""

from __future__ import annotations

import pytest

from tabletop.table.runner import MOST_CATCH_UP, Pacer


class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def test_steady_waits_sleep_the_pace() -> None:
    t = FakeTime()
    pacer = Pacer(0.02, now=lambda: t.now, sleep=t.sleep)
    for _ in range(4):
        pacer.wait(0.5)
    assert t.slept == pytest.approx([0.01] * 4)


def test_time_spent_between_waits_counts_toward_the_next() -> None:
    t = FakeTime()
    pacer = Pacer(0.1, now=lambda: t.now, sleep=t.sleep)
    pacer.wait(1.0)            # sleeps 0.1
    t.now += 0.25              # a camera frame took 0.25 s of real time
    assert pacer.wait(1.0) == 0.0          # 0.1 due, 0.25 spent: no sleep
    assert pacer.wait(1.0) == 0.0          # 0.2 due, 0.35 spent: still no sleep
    assert pacer.wait(1.0) == pytest.approx(0.05)


def test_catch_up_is_bounded() -> None:
    t = FakeTime()
    pacer = Pacer(0.1, now=lambda: t.now, sleep=t.sleep)
    pacer.wait(1.0)
    t.now += 60.0              # a very slow step: only MOST_CATCH_UP of it is made up
    waits_without_sleep = 0
    while pacer.wait(1.0) == 0.0:
        waits_without_sleep += 1
    assert waits_without_sleep == pytest.approx(MOST_CATCH_UP / 0.1, abs=1)


def test_pace_zero_never_sleeps() -> None:
    t = FakeTime()
    pacer = Pacer(0.0, now=lambda: t.now, sleep=t.sleep)
    assert pacer.wait(5.0) == 0.0 and t.slept == []
