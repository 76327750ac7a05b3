"""The sand timer on mock pins with a fake clock: no sleeps."""

from __future__ import annotations

import pytest

from hardware import DEFAULT_PINS, SandTimer

pytestmark = pytest.mark.hardware

TILT = DEFAULT_PINS["sand_timer"]["tilt"]
BUZZER = DEFAULT_PINS["sand_timer"]["buzzer"]


def test_drains_the_bar_beeps_in_the_last_seconds_and_sounds_the_end(factory, clock):
    expired = []
    with SandTimer(30, pin_factory=factory, clock=clock, on_expired=lambda: expired.append(clock.t)) as timer:
        timer.start()
        assert timer.bar == 1.0
        start = clock.t
        for step in range(1, 301):  # 0.1 s steps
            clock.t = start + step / 10
            timer.update()
            if step == 150:
                assert timer.bar == pytest.approx(0.5, abs=0.01)
        assert timer.expired and expired
        warns = [t for t, what in timer.sounds if what == "warn"]
        assert len(warns) == 5 and [what for _, what in timer.sounds][-1] == "end"
        assert timer.bar == 0.0
        assert factory.pin(BUZZER).frequency == pytest.approx(880, rel=0.01)
        clock.t += 1.1
        timer.update()
        assert not timer._buzzer.is_active


def test_pause_and_resume_hold_the_sand(factory, clock):
    with SandTimer(10, pin_factory=factory, clock=clock) as timer:
        timer.start()
        clock.t += 4
        timer.pause()
        clock.t += 100
        assert timer.update() == pytest.approx(6)
        timer.resume()
        clock.t += 1
        assert timer.update() == pytest.approx(5)


def test_flipping_the_tilt_switch_restarts_it(factory, clock):
    with SandTimer(10, pin_factory=factory, clock=clock) as timer:
        timer.start()
        clock.t += 7
        timer.update()
        factory.pin(TILT).drive_low()  # turned over
        assert timer.update() == pytest.approx(10)
        factory.pin(TILT).drive_high()  # the switch rattles as it turns: ignored (< 300 ms)
        assert timer.update() == pytest.approx(10)


def test_sand_mode_runs_again_what_had_run_through(factory, clock):
    with SandTimer(10, pin_factory=factory, clock=clock, flip="sand") as timer:
        timer.start()
        clock.t += 7
        timer.flip()
        assert timer.update() == pytest.approx(7)


def test_bad_arguments_are_readable():
    with pytest.raises(ValueError, match="positive duration"):
        SandTimer(0)
    with pytest.raises(ValueError, match="flip must be"):
        SandTimer(5, flip="upside-down")
