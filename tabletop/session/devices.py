"""Table devices as pluggable inputs and outputs, each with a simulated twin.

Inputs turn into session calls: :class:`SerialBuzzers` (the USB buzzer box, through
:mod:`firmware_bridge`; its twin is the box emulator on a pty), :class:`GpioPanel` (the Pi's
buttons through :mod:`hardware`, mock pins off a Pi), :class:`CameraInput` (frames through
:mod:`vision`'s tracker) with :class:`SyntheticCamera` as the camera's twin.
Outputs follow the session: :class:`TableOutputs` lights the answering player's LED, runs the
sand timer on the game's current countdown and sounds the buzzer on a refusal.

Device callbacks never call the session on the device's own thread (a device thread waiting for
the session while the session waits for the device would deadlock): presses go through a queue
to a dispatcher thread.
"""

from __future__ import annotations

import queue
import threading
import time
from typing import Any, Callable, Iterable

from rules.arbitration import Arbiter, EarlyPress, Phase, Queued, TieRule
from tabletop.session.core import Session


class _Dispatcher:
    """Runs callables one at a time on its own thread."""

    def __init__(self, name: str):
        self.jobs: queue.Queue = queue.Queue()
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.thread.start()

    def put(self, job: Callable[[], None]) -> None:
        self.jobs.put(job)

    def _run(self) -> None:
        while True:
            job = self.jobs.get()
            if job is None:
                return
            try:
                job()
            except Exception as error:      # a device must never stop the table
                print(f"tabletop: device job failed: {error!r}")
            finally:
                self.jobs.task_done()

    def drain(self, timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while self.jobs.unfinished_tasks and time.monotonic() < deadline:
            time.sleep(0.002)

    def close(self) -> None:
        self.jobs.put(None)


class PressOrderer:
    """Presses reach the session in the order they were *made*, through the arbitration core.

    Device threads deliver presses as they come (GPIO callbacks on several threads, a USB box
    replaying buffered presses); each press waits ``hold`` seconds so that any press stamped
    earlier which is still on its way can overtake it. The batch then goes through one
    :class:`rules.arbitration.Arbiter` per question (the same core for the GPIO panel and the
    buzzer box): it orders presses by their device stamps, keeps each player once a turn (a
    repeat or contact chatter is dropped), and marks true ties (equal stamps, forwarded in seat
    order and counted in ``ties``). The answer windows themselves are refereed by the rules
    core on the table clock, so the arbiter's own window never closes.
    """

    def __init__(self, session: Session, source: str, hold: float = 0.02):
        self.session, self.source, self.hold = session, source, hold
        self.dispatch = _Dispatcher(f"{source}-presses")
        self._lock = threading.Lock()
        self._batch: list[tuple[int, int, str]] = []
        self._timer: threading.Timer | None = None
        self.arbiter = Arbiter(session.setup.players, tie_rule=TieRule.SHOW_TIE, early_press=EarlyPress.QUEUE,
                               window_us=1 << 62)
        self._turn_key: object = None
        self.received = self.forwarded = self.dropped = self.ties = 0

    def add(self, player: str, t_us: int, seat: int) -> None:
        with self._lock:
            self.received += 1
            self._batch.append((t_us, seat, player))
            if self._timer is None:
                self._timer = threading.Timer(self.hold, self._flush)
                self._timer.daemon = True
                self._timer.start()

    def _current_turn(self) -> object:
        """Changes whenever a new question (or turn) starts: the arbiter then starts afresh."""
        game = self.session.game
        return getattr(game, "turns_started", None), len(game.turns)

    def _flush(self) -> None:
        with self._lock:
            batch, self._batch = sorted(self._batch), []
            turn = self._current_turn()
            if turn != self._turn_key:
                self._turn_key = turn
                self.arbiter.reset()
            queued: list[str] = []
            for t_us, _seat, player in batch:
                if self.arbiter.phase is Phase.READING:
                    self.arbiter.open(t_us)
                decision = self.arbiter.press(player, t_us)
                if isinstance(decision, Queued):
                    queued.append(str(decision.player))
                    self.ties += bool(decision.tied_with)
                else:
                    self.dropped += 1
            self.forwarded += len(queued)
            for name in queued:
                self.dispatch.put(self._buzz_job(name))
            self._timer = None  # only now: drain() waits for the timer, then for the dispatcher

    def _buzz_job(self, player: str) -> Callable[[], None]:
        def job() -> None:
            self.session.buzz(player, source=self.source)
        return job

    def drain(self, timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while (self._batch or self._timer is not None) and time.monotonic() < deadline:
            time.sleep(0.002)
        self.dispatch.drain(max(0.0, deadline - time.monotonic()))

    def close(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
        self._flush()
        self.dispatch.drain(1.0)
        self.dispatch.close()


class SerialBuzzers:
    """The USB buzzer box: presses become buzz-ins; LEDs, timer and buzzer follow the game."""

    def __init__(self, session: Session, url: str, *, hello_timeout: float = 3.0):
        from firmware_bridge.link import BuzzerLink
        self.session = session
        self.players = list(session.setup.players)
        self.dispatch = PressOrderer(session, "buzzer-box")
        self.presses = 0
        self.link = BuzzerLink.open(url, on_press=self._on_press, hello_timeout=hello_timeout)
        session.set_device("buzzers", f"buzzer box on {url}")

    def _on_press(self, press) -> None:
        if 0 <= press.player < len(self.players):
            self.presses += 1
            self.dispatch.add(self.players[press.player], press.t_us, press.player)

    def leds(self, players: set[str]) -> None:
        mask = sum(1 << i for i, p in enumerate(self.players) if p in players)
        self.link.leds(mask)

    def timer(self, seconds: float | None) -> None:
        """The box's own timer LEDs: run ``seconds`` (``None``: stop)."""
        if seconds is None:
            self.link.timer_stop()
        else:
            self.link.timer_start(max(1, int(seconds * 1000)))

    def beep(self, kind: str) -> None:
        self.link.buzz(220 if kind == "refused" else 880, 250)

    def close(self) -> None:
        self.dispatch.close()
        self.link.close()


class GpioPanel:
    """The Raspberry Pi's buzz-in panel (mock pins off a Pi): player buttons, LEDs, host buttons."""

    def __init__(self, session: Session, pins: dict | None = None, pin_factory=None):
        from hardware.buzzpanel import BuzzPanel
        self.session = session
        self.players = list(session.setup.players)
        self.dispatch = _Dispatcher("gpio-host")
        self.presses = PressOrderer(session, "gpio")
        self.panel = BuzzPanel(pins, pin_factory=pin_factory, on_press=self._on_press, on_host=self._on_host)
        session.set_device("buzzers", "GPIO buttons" + (" (mock pins)" if self.panel.mock else ""))

    @property
    def mock(self) -> bool:
        return self.panel.mock

    def _on_press(self, press) -> None:
        if 0 <= press.player < len(self.players):
            self.presses.add(self.players[press.player], press.t_us, press.player)

    def _on_host(self, action) -> None:
        self.dispatch.put(lambda: host_button(self.session, action.name))

    def leds(self, players: set[str]) -> None:
        self.panel.light_only([i for i, p in enumerate(self.players) if p in players])

    def close(self) -> None:
        self.presses.close()
        self.dispatch.close()
        self.panel.close()


#: a physical host button -> the game actions it stands for, in order of preference
HOST_BUTTONS = {"recognise": ("recognise",), "right": ("answer-right",), "wrong": ("answer-wrong",),
                "next": ("clue", "clue-read")}


def host_button(session: Session, name: str):
    """A physical host button: recognise the first hand, right, wrong, next (draw a card; once
    it is read aloud, start the answers' 30 seconds). Finds the game's action by its key."""
    for key in HOST_BUTTONS[name]:
        result = session.host_action(key, source="host-button")
        if result is not None:
            return result
    return None


class TableOutputs:
    """Lights, sand timer and buzzer following the session (on their own thread)."""

    def __init__(self, session: Session, *, sand_timer=None, lights: Callable[[set], None] | None = None,
                 beep: Callable[[str], None] | None = None, timers: Iterable[Callable[..., Any]] = ()):
        self.session, self.sand, self.lights, self.beep = session, sand_timer, lights, beep
        self.timers = list(timers)          # other countdown displays: f(seconds or None)
        self.dispatch = _Dispatcher("table-outputs")
        self._timer_key: tuple[str, float] | None = None
        self.timer_starts = 0
        self.beeps = 0
        session.subscribe(lambda message: self.dispatch.put(lambda: self._update(message)))

    def _update(self, message: dict) -> None:
        view = self.session.view()
        if self.lights is not None:
            lit = {view["answering"]} if view.get("answering") else set(view.get("hands", [])[:1])
            self.lights(lit)
        timers = view["timers"]
        main = timers[-1] if timers else None
        key = (main["name"], main["ends"]) if main else None
        if key != self._timer_key:
            self._timer_key = key
            seconds = None if main is None else max(0.1, main["ends"] - view["now"])
            if main is not None:
                self.timer_starts += 1
            if self.sand is not None:
                self.sand.stop() if seconds is None else self.sand.start(seconds)
            for show in self.timers:
                show(seconds)
        if self.sand is not None:
            self.sand.update()
        result = message.get("result")
        if self.beep is not None and result and result.get("status") == "rejected":
            self.beeps += 1
            self.beep("refused")

    def drain(self) -> None:
        self.dispatch.drain()

    def close(self) -> None:
        self.dispatch.close()
        if self.sand is not None:
            self.sand.close()


def sand_timer_on_mock_pins(session: Session, pins: dict | None = None):
    """The GPIO sand timer running on the session's table clock (mock pins off a Pi)."""
    from hardware.sandtimer import SandTimer
    return SandTimer(30.0, pins, clock=session.clock.now)


class SyntheticCamera:
    """The camera's twin: renders the printed board with the letters written so far."""

    def __init__(self, board, *, seed: int = 0, tilt_deg: float = 12.0):
        self.board, self.seed, self.tilt = board, seed, tilt_deg
        self.letters: dict = {}
        self._frame = None
        self.renders = 0

    def show(self, letters: dict) -> None:
        if letters != self.letters:
            self.letters = dict(letters)
            self._frame = None

    def hand_frame(self, seed: int = 0):
        """A frame with the writer's hand still over the board (the tracker must not read it)."""
        from vision.scene import render_scene
        self.renders += 1
        return render_scene(self.board, self.letters, seed=self.seed, tilt_deg=self.tilt, glare=False,
                            hand=True)

    def read(self):
        if self._frame is None:
            from vision.scene import render_scene
            self._frame = render_scene(self.board, self.letters, seed=self.seed, tilt_deg=self.tilt, glare=False)
            self.renders += 1
        return self._frame


class OpenCVCamera:
    """A USB camera through OpenCV (``index`` 0 = the first)."""

    def __init__(self, index: int = 0, size=(1280, 720)):
        import glob
        import os
        if not glob.glob("/dev/video*"):
            raise RuntimeError("no /dev/video* device")
        os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")
        import cv2
        self.cap = cv2.VideoCapture(index)
        self.cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        self.cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        if not self.cap.isOpened():
            raise RuntimeError(f"no camera at index {index}")

    def read(self):
        ok, frame = self.cap.read()
        return frame if ok else None

    def close(self) -> None:
        self.cap.release()


class PiCamera:
    """The Raspberry Pi camera through picamera2."""

    def __init__(self, size=(1280, 720)):
        from picamera2 import Picamera2
        self.cam = Picamera2()
        self.cam.configure(self.cam.create_video_configuration(main={"size": size, "format": "BGR888"}))
        self.cam.start()

    def read(self):
        return self.cam.capture_array()

    def close(self) -> None:
        self.cam.stop()


def open_camera(kind: str = "auto", index: int = 0):
    """``auto``: the Pi camera where present, else a USB camera, else ``None`` (use the synthetic one)."""
    if kind in ("auto", "pi"):
        try:
            return PiCamera()
        except Exception:
            if kind == "pi":
                raise
    if kind in ("auto", "usb"):
        try:
            return OpenCVCamera(index)
        except Exception:
            if kind == "usb":
                raise
    return None


class CameraInput:
    """Frames -> the vision tracker -> ``write`` events credited to the player writing now."""

    def __init__(self, session: Session, camera, *, reader=None):
        from tabletop.lexicons import reading_index
        from vision.reader import BoardReader
        from vision.tracker import Tracker
        self.session, self.camera = session, camera
        if session.board is None:
            raise ValueError(f"{session.setup.game} has no board for the camera to read")
        self.reader = reader or BoardReader(session.board, lexicon=reading_index(session.lexicon, session.setup.language))
        self.tracker = Tracker(self.reader, baseline=session.game.state().get("grid"))
        self.detections = 0
        self.failure: str | None = None
        self._stop = threading.Event()
        self.thread: threading.Thread | None = None

    def feed(self, frame, t: float) -> list:
        """One frame at table time ``t``; returns the session results of the writes it completed."""
        results = []
        detections = self.tracker.feed(frame, t)
        self.session.set_device("camera", self.tracker.status)
        if self.tracker.status == "committed":
            self.session.set_board_read(self.tracker.committed_rows)
        for detection in detections:
            self.detections += 1
            event = detection.to_event()
            event["t"] = t
            result = self.session.camera_read(event, bool(getattr(detection, "needs_confirmation", False)))
            if result is not None:
                results.append(result)
        return results

    def run_in_background(self, fps: float = 8.0) -> None:
        def loop():
            while not self._stop.is_set():
                try:
                    frame = self.camera.read()
                    if frame is not None:
                        self.feed(frame, self.session.clock.now())
                    self.failure = None
                except Exception as error:        # keep watching: the next frame may read
                    if self.failure is None:
                        print(f"tabletop: camera: {error!r}")
                    self.failure = repr(error)
                self._stop.wait(1.0 / fps)
        self.thread = threading.Thread(target=loop, name="camera", daemon=True)
        self.thread.start()

    def close(self) -> None:
        self._stop.set()
        if self.thread:
            self.thread.join(timeout=2)
