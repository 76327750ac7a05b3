"""Buzz-in paths, measured: ``tabletop bench buzzers [--quick] [--json]``.

- **GPIO path** (gpiozero mock pins): press-to-decision latency (pin driven -> edge callback ->
  first-edge debounce -> ``Arbiter.press`` decision), and the smallest spacing between two
  presses that was ordered right in every trial.
- **Serial path, emulator** (Python box on a pty, pyserial host link): press-to-decision latency,
  command round trip (PING -> ACK), frames per second through the link, and a 1 % corruption run
  (bytes dropped or bit-flipped both ways): false, lost and doubled presses.
- **Serial path, firmware** (avr-gcc build in simavr at real-time pace, UART on a pty): round
  trip, press-to-decision latency (approximate: simulated time is paced to the wall clock to
  within ~0.1 ms), and the smallest spacing ordered right, with presses placed to the CPU cycle.
- **Phones** (emulated home Wi-Fi: each phone 5-150 ms one way, +0-30 % jitter per message, its
  clock off by up to 1000 s): the clock offset error after 12 round trips
  (:class:`tabletop.session.devices.phones.ClockSync`, the seat page's algorithm), and the
  smallest spacing between two phones' presses ordered right in every trial (stamps ordered by
  the same :class:`rules.arbitration.Arbiter` within :data:`~tabletop.session.devices.phones.PHONE_HOLD`);
  and the cheat bound: how long before its arrival each phone's stamp may claim (its allowance,
  from the round trips the table timed), what a forged stamp gains over the cheater's real press
  (allowance minus its real way up), and how often a forge sent 0.1-0.38 s after an honest press
  wins (the issue's 2.9 s forge, and the best forge the table believes).
- **Resync**: a stream of frames with 1 % of bytes damaged through the decoder: frames lost
  that were not themselves damaged (0 = back in sync within one frame).

Budgets (DESIGN.md): press to decision <= 1 ms in process; serial round trip <= 5 ms on a pty;
ordered right at 1 ms (GPIO) and 50 us (firmware).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import tempfile
import threading
import time
from typing import Any

from firmware_bridge import protocol as p
from firmware_bridge.emulator import DeviceEmulator
from firmware_bridge.link import BuzzerLink
from firmware_bridge.simbox import SimBox, SimError
from hardware.buzzpanel import BuzzPanel, PanelPress
from hardware.config import DEFAULT_PINS
from rules.arbitration import Arbiter
from tabletop.benchmarks.stats import percentile, percentile_lower

GPIO_SPACINGS_US = [1000, 500, 200, 100, 50, 20, 10, 5, 2, 1]
FIRMWARE_SPACINGS_US = [50, 20, 10, 5, 3, 2, 1]  # simulated time, placed to the CPU cycle


def _stats(samples: list[float]) -> dict:
    ordered = sorted(samples)
    return {
        "n": len(ordered),
        "median_us": round(statistics.median(ordered), 1),
        "p99_us": round(percentile(ordered, 0.99), 1),
        "max_us": round(ordered[-1], 1),
    }


def _busy_wait_us(us: float) -> None:
    end = time.perf_counter() + us / 1e6
    while time.perf_counter() < end:
        pass


# ---- GPIO path -------------------------------------------------------------------------------
def gpio_path(n: int, trials: int) -> dict:
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    factory = MockFactory(pin_class=MockPWMPin)
    arbiter = Arbiter(range(6))
    decided: list[float] = []
    def on_press(press: PanelPress) -> None:
        arbiter.press(press.player, press.t_us)
        decided.append(time.perf_counter_ns())

    panel = BuzzPanel(pin_factory=factory, rearm_us=0, on_press=on_press)
    buttons = [factory.pin(s["button"]) for s in DEFAULT_PINS["players"]]
    latencies = []
    try:
        for i in range(n):
            arbiter.reset()
            arbiter.open(0)
            pin = buttons[i % 6]
            start = time.perf_counter_ns()
            pin.drive_low()
            latencies.append((decided[-1] - start) / 1000)
            pin.drive_high()
        spacing = {}
        for gap in GPIO_SPACINGS_US:
            right = 0
            for t in range(trials):
                arbiter.reset()
                arbiter.open(0)
                a, b = random.Random(t).sample(range(6), 2)
                buttons[a].drive_low()
                _busy_wait_us(gap)
                buttons[b].drive_low()
                buttons[a].drive_high()
                buttons[b].drive_high()
                right += [x.player for x in arbiter.queue] == [a, b]
            spacing[gap] = right / trials
    finally:
        panel.close()
        factory.close()
    always = [g for g in GPIO_SPACINGS_US if spacing[g] == 1.0]
    return {
        "press_to_decision": _stats(latencies),
        "ordered_right_fraction_by_spacing_us": spacing,
        "min_spacing_always_ordered_us": min(always) if always else None,
    }


# ---- serial path: emulator --------------------------------------------------------------------
def emulator_path(n: int, corrupt_presses: int) -> dict:
    out: dict = {}
    with DeviceEmulator(seed=1) as box:
        arbiter = Arbiter(range(6))
        arbiter.open(0)
        decided = threading.Event()
        stamp: list[int] = [0]

        def on_press(press):
            arbiter.press(press.player, press.t_us)
            stamp[0] = time.perf_counter_ns()
            decided.set()

        with BuzzerLink.open(box.path, on_press=on_press) as link:
            latencies = []
            for i in range(n):
                arbiter.reset()
                arbiter.open(0)
                decided.clear()
                start = time.perf_counter_ns()
                box.tap(i % 6, box.now_us() + 25_000 * (i + 1))  # stamps apart: no re-arm wait
                if decided.wait(1.0):
                    latencies.append((stamp[0] - start) / 1000)
            out["press_to_decision"] = _stats(latencies)
            rtts = [link.ping() * 1e6 for _ in range(n)]
            out["round_trip"] = _stats(rtts)
            started = time.perf_counter()
            count = max(200, n)
            for _ in range(count):
                link.ping()
            out["commands_per_s"] = round(count / (time.perf_counter() - started))
        out["frames_per_s_one_way"] = _frames_per_second(box_frames=4000 if n >= 1000 else 1000)
        out["corruption_1pct"] = _corruption_run(corrupt_presses)
    return out


def _frames_per_second(box_frames: int) -> int:
    """Press frames written as fast as a pty takes them, decoded by pyserial + FrameDecoder."""
    import serial

    master, slave = os.openpty()
    import tty

    tty.setraw(slave)
    name = os.ttyname(slave)
    port = serial.serial_for_url(name, timeout=0.05)
    frames = b"".join(p.encode_frame(p.Press(seq=i & 0xFF, press_seq=i & 0xFFFF, player=i % 6, t_us=i))
                      for i in range(box_frames))

    def write():
        view = memoryview(frames)
        while view:
            written = os.write(master, view[:4096])
            view = view[written:]

    decoder = p.FrameDecoder()
    got = 0
    writer = threading.Thread(target=write, daemon=True)
    start = time.perf_counter()
    writer.start()
    deadline = start + 20
    while got < box_frames and time.perf_counter() < deadline:
        got += len(decoder.feed(port.read(max(1, port.in_waiting))))
    elapsed = time.perf_counter() - start
    writer.join(1)
    port.close()
    os.close(master)
    os.close(slave)
    return round(got / elapsed)


def _corruption_run(presses: int) -> dict:
    with DeviceEmulator(seed=7) as box, BuzzerLink.open(box.path) as link:
        box.corrupt_rate = box.corrupt_in_rate = 0.01
        sent = []
        for i in range(presses):
            player, t = i % 6, 10_000 + i * 25_000
            if box.tap(player, t):
                sent.append((player, t))
            time.sleep(0.004)
        got: list[Any] = []
        deadline = time.monotonic() + 10
        while len(got) < len(sent) and time.monotonic() < deadline:
            try:
                got.append(link.presses.get(timeout=0.2))
            except Exception:
                pass
        time.sleep(0.3)
        while not link.presses.empty():
            got.append(link.presses.get_nowait())
        received = [(g.player, g.t_us) for g in got]
        return {
            "presses": len(sent),
            "false": len(set(received) - set(sent)),
            "lost": len(set(sent) - set(received)),
            "doubled": len(received) - len(set(received)),
            "frames_rejected_by_host": link.stats.frame_errors,
            "frames_rejected_by_box": box.frames_rejected,
            "replays_dropped_as_duplicates": link.stats.duplicates,
            "reconnects": link.stats.reconnects,
        }


def resync(frames: int, seed: int = 3) -> dict:
    """1 % of bytes dropped or flipped: count intact frames the decoder failed to deliver."""
    rng = random.Random(seed)
    msgs = [p.Press(seq=i & 0xFF, press_seq=i & 0xFFFF, player=i % 6, t_us=rng.getrandbits(32)) for i in range(frames)]
    stream, damaged = bytearray(), []
    for m in msgs:
        frame, out = p.encode_frame(m), bytearray()
        for byte in frame:
            r = rng.random()
            if r < 0.005:
                continue
            out.append(byte ^ (1 << rng.randrange(8)) if r < 0.01 else byte)
        damaged.append(bytes(out) != frame)
        stream += out
    decoder = p.FrameDecoder()
    got = decoder.feed(bytes(stream))
    got_set = set(got)
    intact_lost = sum(1 for m, d in zip(msgs, damaged) if not d and m not in got_set)
    return {
        "frames": frames,
        "damaged": sum(damaged),
        "intact_frames_lost": intact_lost,
        "false_frames": sum(1 for m in got if m not in set(msgs)),
    }


# ---- serial path: firmware in simavr ----------------------------------------------------------
def firmware_path(n: int, trials: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="buzzbox-bench-") as build:
        try:
            elf, harness = SimBox.build(build)
        except SimError as exc:
            return {"skipped": str(exc)}
        return _firmware_path(elf, harness, n, trials)


def _firmware_path(elf, harness, n: int, trials: int) -> dict:
    out: dict = {}
    with SimBox(elf, harness) as box:
        decided = threading.Event()
        stamp: list[int] = [0]
        arbiter = Arbiter(range(6))

        def on_press(press):
            arbiter.press(press.player, press.t_us)
            stamp[0] = time.perf_counter_ns()
            decided.set()

        with BuzzerLink.open(box.path, on_press=on_press, hello_timeout=5) as link:
            out["round_trip"] = _stats([link.ping() * 1e6 for _ in range(n)])
            start = time.perf_counter()
            for _ in range(n):
                link.ping()
            out["commands_per_s"] = round(n / (time.perf_counter() - start))
            latencies = []
            lead_us = 20_000
            for i in range(min(n, 100)):
                player = i % 6
                arbiter.reset()
                arbiter.open(0)
                decided.clear()
                box.sequence([(player, 0, True)], lead_us=lead_us)
                asked = time.perf_counter_ns()  # the reply left the harness ~at base - lead
                if decided.wait(1.0):
                    latencies.append((stamp[0] - asked) / 1000 - lead_us)
                box.sequence([(player, 0, False)], lead_us=100)
                time.sleep(0.025)  # let the box re-arm (20 ms released)
            out["press_to_decision_approx"] = _stats(latencies)
            link.on_press = None
            out["corruption_1pct"] = _firmware_corruption(box, link, rounds=max(5, trials))
            for label, size in (("pairs", 2), ("six_at_once", 6)):
                spacing = {}
                for gap in FIRMWARE_SPACINGS_US:
                    right = 0
                    for t in range(trials):
                        order = random.Random(t).sample(range(6), size)
                        right += _ordered_burst(box, link, order, gap)
                    spacing[gap] = right / trials
                always = [g for g in FIRMWARE_SPACINGS_US if spacing[g] == 1.0]
                out[f"{label}_ordered_right_fraction_by_spacing_us"] = spacing
                out[f"{label}_min_spacing_always_ordered_us"] = min(always) if always else None
    return out


def _firmware_corruption(box: SimBox, link: BuzzerLink, rounds: int) -> dict:
    """Six presses a round with 1 % of link bytes dropped or flipped both ways (in the harness)."""
    frames_before, dups_before = link.stats.frame_errors, link.stats.duplicates
    box.corrupt(0.01, seed=5)
    sent, got = [], []
    try:
        for r in range(rounds):
            order = random.Random(100 + r).sample(range(6), 6)
            box.sequence([(player, 100 * k, True) for k, player in enumerate(order)], lead_us=5_000)
            sent += [(r, player) for player in order]
            deadline = time.monotonic() + 3
            round_got: list[Any] = []
            while len(round_got) < 6 and time.monotonic() < deadline:
                try:
                    round_got.append(link.presses.get(timeout=0.1))
                except Exception:
                    pass
            got += [(r, g.player, g.seq) for g in round_got]
            box.sequence([(player, 0, False) for player in range(6)], lead_us=1_000)
            time.sleep(0.03)
        time.sleep(0.3)
        while not link.presses.empty():
            g = link.presses.get_nowait()
            got.append((-1, g.player, g.seq))
    finally:
        box.corrupt(0.0)
    received = {(r, pl) for r, pl, _ in got}
    return {
        "presses": len(sent),
        "false": len(received - set(sent)),
        "lost": len(set(sent) - received),
        "doubled": len(got) - len({seq for _, _, seq in got}),
        "frames_rejected_by_host": link.stats.frame_errors - frames_before,
        "replays_dropped_as_duplicates": link.stats.duplicates - dups_before,
    }


def _ordered_burst(box: SimBox, link: BuzzerLink, order: list[int], gap_us: int) -> bool:
    """Press ``order``'s buttons ``gap_us`` apart; True if the stamps put them in that order."""
    box.sequence([(player, gap_us * k, True) for k, player in enumerate(order)])
    got = []
    try:
        got = [link.presses.get(timeout=2) for _ in order]
    except Exception:
        pass
    box.sequence([(player, 0, False) for player in order], lead_us=1_000)
    time.sleep(0.03)  # released for 20 ms: re-armed
    by_player = {g.player: g.t_us for g in got}
    stamps = [by_player.get(player) for player in order]
    known = [s for s in stamps if s is not None]
    return len(known) == len(stamps) and all(b > a for a, b in zip(known, known[1:]))


# ---- phones ----------------------------------------------------------------------------------
PHONE_SPACINGS_MS = (1, 2, 5, 10, 20, 30, 50, 100)


def phone_path(trials: int, seed: int = 5) -> dict[str, Any]:
    """Emulated phones: how far the clock estimate is off, which spacings are always ordered right,
    and what a cheater gains (:func:`~tabletop.session.devices.phones.judge_stamp` on each press)."""
    from rules.arbitration import Arbiter
    from tabletop.session.devices.phones import MAX_CLAIM, PHONE_HOLD, ClockSync, RoundTrips, judge_stamp

    rng = random.Random(seed)
    errors_ms: list[float] = []
    allowances_ms: list[float] = []
    gains_ms: list[float] = []
    right = {spacing: 0 for spacing in PHONE_SPACINGS_MS}
    forged_wins = best_forge_wins = honest_doubted = honest_presses = 0
    for _ in range(trials):
        phones = []
        for _ in range(2):
            latency, jitter = rng.uniform(0.005, 0.150), rng.uniform(0.0, 0.3)
            clock_off = rng.uniform(-1000, 1000)               # phone clock minus table clock
            sync, trips, t = ClockSync(), RoundTrips(), rng.uniform(0, 5)
            for _ in range(12):                                 # the page pings every 0.7 s
                up, down = latency * (1 + rng.uniform(0, jitter)), latency * (1 + rng.uniform(0, jitter))
                sync.sample(t + clock_off, t + up, t + up + down + clock_off)
                # the table's probe right after: down to the phone, echoed at once, up again
                trips.add(latency * (1 + rng.uniform(0, jitter)) + latency * (1 + rng.uniform(0, jitter)))
                t += 0.7
            error = (sync.offset or 0.0) + clock_off             # estimated minus true (table - phone)
            errors_ms.append(abs(error) * 1000)
            allowance = trips.allowance()
            allowances_ms.append((allowance or 0.0) * 1000)
            phones.append((latency, jitter, error, allowance))
        opened = 99.0
        for spacing in PHONE_SPACINGS_MS:
            pressed = [100.0, 100.0 + spacing / 1000]           # phone 0 presses first
            arrivals = [pressed[i] + phones[i][0] * (1 + rng.uniform(0, phones[i][1])) for i in (0, 1)]
            stamps = [judge_stamp(pressed[i] + phones[i][2], arrivals[i], phones[i][3], opened) for i in (0, 1)]
            honest_presses += 2
            honest_doubted += sum(bool(stamp.doubted) for stamp in stamps)
            right[spacing] += _first(Arbiter, [s.t for s in stamps], arrivals, PHONE_HOLD) == 0
        # a cheater (phone 1) sends 0.1-0.38 s after an honest press: the forged stamp
        # (arrival - 2.9 s), and the best forge the table believes (arrival - its allowance)
        later = rng.uniform(0.1, 0.38)
        honest_arrival = 100.0 + phones[0][0] * (1 + rng.uniform(0, phones[0][1]))
        honest = judge_stamp(100.0 + phones[0][2], honest_arrival, phones[0][3], opened).t
        forged_arrival = 100.0 + later + phones[1][0]
        gains_ms.append(max(0.0, (phones[1][3] or 0.0) - phones[1][0]) * 1000)   # believed claim minus the real way up
        for claim, counter in ((forged_arrival - 2.9, "forged"), (forged_arrival - (phones[1][3] or 0.0), "best")):
            forged = judge_stamp(claim, forged_arrival, phones[1][3], opened).t
            wins = _first(Arbiter, [honest, forged], [honest_arrival, forged_arrival], PHONE_HOLD) == 1
            if counter == "forged":
                forged_wins += wins
            else:
                best_forge_wins += wins
    fractions = {spacing: round(n / trials, 4) for spacing, n in right.items()}
    always = [spacing for spacing in PHONE_SPACINGS_MS if right[spacing] == trials]
    ordered, allowed, gains = sorted(errors_ms), sorted(allowances_ms), sorted(gains_ms)
    return {"trials": trials, "offset_error_ms": {"median": round(statistics.median(ordered), 2),
                                                  "p99": round(percentile_lower(ordered, 0.99), 2),
                                                  "max": round(ordered[-1], 2)},
            "min_spacing_always_ordered_ms": always[0] if always and always == list(PHONE_SPACINGS_MS[-len(always):]) else None,
            "ordered_right_fraction_by_spacing_ms": fractions, "hold_s": PHONE_HOLD,
            "allowance_ms": _spread(allowed), "cheat_gain_ms": _spread(gains),
            "cheat_bound_worst_ms": round(MAX_CLAIM * 1000),
            "honest_presses_ordered_by_arrival": round(honest_doubted / honest_presses, 4),
            "forged_2_9s_wins": forged_wins, "best_believed_forge_wins": best_forge_wins}


def _spread(values: list[float]) -> dict[str, float]:
    """Median, p99 and max of sorted ``values``, rounded to 0.1."""
    return {"median": round(statistics.median(values), 1), "p99": round(values[int(0.99 * (len(values) - 1))], 1),
            "max": round(values[-1], 1)}


def _first(arbiter_type: Any, stamps: list[float], arrivals: list[float], hold: float) -> int:
    """Which of two presses the table queues first: by stamp within ``hold`` of each other, else by arrival."""
    if abs(arrivals[0] - arrivals[1]) > hold:                    # the later one came after the hold
        return min((0, 1), key=lambda k: arrivals[k])
    arbiter = arbiter_type([0, 1])
    arbiter.open(0)
    for i in sorted((0, 1), key=lambda k: arrivals[k]):
        arbiter.press(i, round(stamps[i] * 1_000_000))
    return arbiter.queue[0].player


def run(args) -> int:
    quick = bool(getattr(args, "quick", False))
    results = {
        "gpio_mock": gpio_path(n=300 if quick else 3000, trials=20 if quick else 200),
        "serial_emulator": emulator_path(n=100 if quick else 500, corrupt_presses=60 if quick else 300),
        "serial_firmware_simavr": firmware_path(n=50 if quick else 300, trials=3 if quick else 10),
        "decoder_resync_1pct": resync(frames=2000 if quick else 20000),
        "phones_emulated": phone_path(trials=300 if quick else 3000),
    }
    if getattr(args, "json", False):
        print(json.dumps(results, indent=2))
        return 0
    g, e, f, r = (results[k] for k in ("gpio_mock", "serial_emulator", "serial_firmware_simavr", "decoder_resync_1pct"))

    def line(label, s, budget=None):
        tail = f"  (budget {budget} us)" if budget else ""
        print(f"  {label:<34} median {s['median_us']:>8} us   p99 {s['p99_us']:>8} us   max {s['max_us']:>8} us   n={s['n']}{tail}")

    print("GPIO path (gpiozero mock pins):")
    line("press -> decision", g["press_to_decision"], 1000)
    print(f"  min spacing always ordered right   {g['min_spacing_always_ordered_us']} us  (target 1000 us; "
          f"fractions {g['ordered_right_fraction_by_spacing_us']})")
    print("Serial path, Python emulator on a pty:")
    line("press -> decision", e["press_to_decision"], 1000)
    line("round trip (PING -> ACK)", e["round_trip"], 5000)
    print(f"  commands acknowledged per second   {e['commands_per_s']}")
    print(f"  frames/s through pty + decoder     {e['frames_per_s_one_way']}")
    c = e["corruption_1pct"]
    print(f"  1% corruption both ways            {c['presses']} presses: false {c['false']}, lost {c['lost']}, "
          f"doubled {c['doubled']}; frames rejected host {c['frames_rejected_by_host']} / box "
          f"{c['frames_rejected_by_box']}; replays dropped {c['replays_dropped_as_duplicates']}")
    print("Serial path, avr-gcc firmware in simavr on a pty:")
    if "skipped" in f:
        print(f"  skipped: {f['skipped']}")
    else:
        line("round trip (PING -> ACK)", f["round_trip"], 5000)
        line("press -> decision (approx.)", f["press_to_decision_approx"])
        print(f"  commands acknowledged per second   {f['commands_per_s']}")
        c = f["corruption_1pct"]
        print(f"  1% corruption both ways            {c['presses']} presses: false {c['false']}, lost {c['lost']}, "
              f"doubled {c['doubled']}; frames rejected host {c['frames_rejected_by_host']}; "
              f"replays dropped {c['replays_dropped_as_duplicates']}")
        print(f"  min spacing always ordered, 2 presses  {f['pairs_min_spacing_always_ordered_us']} us  (target 50 us; "
              f"fractions {f['pairs_ordered_right_fraction_by_spacing_us']})")
        print(f"  min spacing always ordered, 6 presses  {f['six_at_once_min_spacing_always_ordered_us']} us  "
              f"(fractions {f['six_at_once_ordered_right_fraction_by_spacing_us']})")
    ph = results["phones_emulated"]
    print(f"Phones (emulated Wi-Fi, 5-150 ms one way with jitter, {ph['trials']} trials):")
    print(f"  clock offset error                 median {ph['offset_error_ms']['median']} ms   "
          f"p99 {ph['offset_error_ms']['p99']} ms   max {ph['offset_error_ms']['max']} ms")
    print(f"  min spacing always ordered right   {ph['min_spacing_always_ordered_ms']} ms  "
          f"(fractions {ph['ordered_right_fraction_by_spacing_ms']})")
    a, cg = ph["allowance_ms"], ph["cheat_gain_ms"]
    print(f"  stamp allowance before arrival     median {a['median']} ms   p99 {a['p99']} ms   max {a['max']} ms")
    print(f"  cheat bound (a forge gains)        median {cg['median']} ms   p99 {cg['p99']} ms   max {cg['max']} ms  "
          f"(a phone that slows its echoes: at most {ph['cheat_bound_worst_ms']} ms)")
    print(f"  forged stamp 2.9 s early, sent 0.1-0.38 s after an honest press: wins {ph['forged_2_9s_wins']} "
          f"of {ph['trials']}; the best believed forge wins {ph['best_believed_forge_wins']} of {ph['trials']}; "
          f"honest presses ordered by arrival {ph['honest_presses_ordered_by_arrival']:.2%}")
    print(f"Decoder with 1% bytes damaged: {r['frames']} frames, {r['damaged']} damaged, "
          f"intact frames lost {r['intact_frames_lost']}, false frames {r['false_frames']}")
    return 0
