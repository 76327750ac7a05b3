"""A room under load: ``tabletop bench room`` (``--quick``: 10 tables for 8 s).

200 simulated tables (each a real :class:`~tabletop.session.core.Session` with its own SQLite
journal and a :class:`~tabletop.room.link.TableLink` with its outbox, playing the letter-dice
and eXtraDICTION SP demo games' events; their files in memory, since each stands for a Pi with its
own SD card) publish for 60 s through one mosquitto on loopback, at
a realistic rate: one journalled entry every 3 s a table on average (a live SP Classic game
journals about 170 entries in 600 s of table time: one every 3.5 s). The tables run in a child
process; this process runs the room service and its web page, with one WebSocket client (the
projector) reading every update.

Reported: entries per second through the room; p50/p99 from a table's journal write to the room
page's update (target p99 <= 250 ms); the room's CPU (this process: service, page and its
reader) and memory; and the largest room a Pi 4-class machine should host, estimated from the
measured CPU per entry (see :func:`pi_tables`).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

from tabletop.benchmarks.stats import percentile, progress_log, report_line

#: simulated tables a process: paho waits on its sockets with select(), which cannot watch a file
#: descriptor numbered 1024 or more, and each table holds about nine (two SQLite files in WAL
#: mode, its socket); a real table is one process
TABLES_A_PROCESS = 50
#: a table journals one entry every this many seconds on average
SECONDS_PER_ENTRY = 3.0
TARGET_P99_MS = 250.0
#: how much slower a Pi 4 (Cortex-A72, 1.5 GHz) runs this Python than the core measured here: an
#: assumption (pyperformance-style CPU-bound Python is 3-5x slower on a Pi 4 than on a recent
#: x86 laptop core); the estimate below takes the pessimistic end
PI_SLOWDOWN = 5.0
#: the share of one Pi core the room may use (the broker, the page's browser and the OS need the rest)
PI_BUDGET = 0.5


def pi_tables(cpu_ms_per_entry: float, slowdown: float = PI_SLOWDOWN, budget: float = PI_BUDGET,
              seconds_per_entry: float = SECONDS_PER_ENTRY) -> int:
    """The most tables one Pi 4-class machine should host: entries per second it can take within
    ``budget`` of a core, at ``slowdown`` times the measured CPU per entry, times the seconds
    between a table's entries.

    >>> pi_tables(1.0)       # 1 ms an entry here: 5 ms on a Pi, 100 entries/s in half a core
    300
    """
    if cpu_ms_per_entry <= 0:
        return 0
    entries_per_second = budget * 1000.0 / (cpu_ms_per_entry * slowdown)
    return int(entries_per_second * seconds_per_entry)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_broker(folder: str) -> tuple[subprocess.Popen, int]:
    binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    if not os.path.exists(binary):
        from tabletop.errors import UserError
        raise UserError("bench room needs mosquitto: `sudo apt-get install mosquitto`")
    port = _free_port()
    conf = os.path.join(folder, "mosquitto.conf")
    with open(conf, "w", encoding="utf-8") as f:
        f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\nmax_queued_messages 100000\n"
                "max_inflight_messages 100\nmax_connections -1\n")
    proc = subprocess.Popen([binary, "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, port
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("mosquitto did not start")


def _stop_process(proc: subprocess.Popen) -> None:
    proc.terminate()
    proc.wait(timeout=5)


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (Linux ``/proc``)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def _rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


def _projector(url: str, stop: threading.Event, updates: list[int]) -> None:
    """The room page's reader: receives every update over the WebSocket."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect
    with connect(url) as ws:
        while not stop.is_set():
            try:
                ws.recv(timeout=0.5)
                updates[0] += 1
            except TimeoutError:
                continue
            except ConnectionClosed:          # the room's page closed at the end of the run
                return


def measure(tables: int, seconds: float, say: Any = print) -> dict[str, Any]:
    """Run the room under ``tables`` simulated tables for ``seconds``; the numbers."""
    from tabletop.room.address import RoomAddress
    from tabletop.room.service import RoomService
    from tabletop.room.web import RoomServer

    folder = tempfile.mkdtemp(prefix="tabletop-bench-room-")
    # the simulated tables' journals and outboxes: each stands for a Pi with its own SD card, so
    # they live in memory (tmpfs) rather than all on this machine's one disk; the room's is on disk
    tables_folder = tempfile.mkdtemp(prefix="tabletop-bench-tables-",
                                     dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    cleanups: list[Any] = [lambda: shutil.rmtree(folder, ignore_errors=True),
                           lambda: shutil.rmtree(tables_folder, ignore_errors=True)]
    children: list[subprocess.Popen] = []
    try:
        broker, port = _start_broker(folder)
        cleanups.append(lambda: _stop_process(broker))
        address = RoomAddress("127.0.0.1", port, "bench")
        service = RoomService(address, os.path.join(folder, "room.sqlite")).start()
        cleanups.append(service.close)
        server = RoomServer(service).start()
        cleanups.append(server.stop)
        stop, updates = threading.Event(), [0]
        cleanups.append(stop.set)
        threading.Thread(target=_projector, args=(f"ws://127.0.0.1:{server.port}/ws", stop, updates),
                         daemon=True).start()
        say(f"room on mqtt://127.0.0.1:{port}/bench; starting {tables} simulated tables ...")
        for first in range(0, tables, TABLES_A_PROCESS):
            count = min(TABLES_A_PROCESS, tables - first)
            children.append(subprocess.Popen([sys.executable, "-m", "tabletop.benchmarks.room", str(address),
                                              str(first), str(count), str(seconds), tables_folder],
                                             stdout=subprocess.PIPE, text=True,
                                             env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}))
        linked = 0
        for child in children:
            assert child.stdout is not None
            ready = child.stdout.readline().split()             # "ready N": every table made, N linked
            if not ready or ready[0] != "ready":
                raise RuntimeError("the simulated tables did not start")
            linked += int(ready[1])
        if linked < tables:
            raise RuntimeError(f"only {linked} of {tables} simulated tables reached the broker")
        idle0, idle_wall0 = time.process_time(), time.monotonic()
        time.sleep(1.0)                              # every table linked, none journalling yet: the idle room
        idle_rate = (time.process_time() - idle0) / (time.monotonic() - idle_wall0)
        service.latencies.clear()
        counted0 = sum(r.counted for r in service.replicas.values())
        cpu0, broker0, wall0 = time.process_time(), _cpu_seconds(broker.pid), time.monotonic()
        for child in children:
            os.kill(child.pid, signal.SIGUSR1)       # every table starts journalling now
        for child in children:
            assert child.stdout is not None
            child.stdout.readline()                  # "done": the tables stopped journalling
        wall = time.monotonic() - wall0
        cpu, broker_cpu = time.process_time() - cpu0, _cpu_seconds(broker.pid) - broker0
        journalled = sum(int(child.stdout.readline().split()[1]) for child in children if child.stdout)
        deadline = time.monotonic() + 30
        while sum(r.counted for r in service.replicas.values()) < journalled and time.monotonic() < deadline:
            time.sleep(0.1)
        counted = sum(r.counted for r in service.replicas.values())
        entries = counted - counted0
        latencies = sorted(service.latencies)
        rss = _rss_mb()
    finally:
        for child in children:
            if child.poll() is None:
                child.terminate()
                child.wait(timeout=30)
        for cleanup in reversed(cleanups):
            try:
                cleanup()
            except Exception:
                pass
    cpu_ms = max(0.0, cpu - idle_rate * wall) * 1000.0 / entries if entries else 0.0
    return {"tables": tables, "seconds": round(wall, 1), "entries": entries, "journalled": journalled,
            "counted": counted, "lost": journalled - counted,
            "entries_per_s": round(entries / wall, 1) if wall else 0.0,
            "p50_ms": round(percentile(latencies, 0.5) * 1000, 1) if latencies else None,
            "p99_ms": round(percentile(latencies, 0.99) * 1000, 1) if latencies else None,
            "room_cpu_percent": round(100 * cpu / wall, 1) if wall else 0.0,
            "room_cpu_ms_per_entry": round(cpu_ms, 3), "room_idle_cpu_percent": round(100 * idle_rate, 1),
            "room_rss_mb": round(rss, 1),
            "broker_cpu_percent": round(100 * broker_cpu / wall, 1) if wall else 0.0,
            "page_updates": updates[0], "pi4_tables": pi_tables(cpu_ms)}


def run(args: Any) -> int:
    quick = bool(getattr(args, "quick", False))
    quiet = bool(getattr(args, "json", False))
    say = progress_log(quiet)
    numbers = measure(10 if quick else 200, 8.0 if quick else 60.0, say)
    if quiet:
        print(json.dumps(numbers))
        return 0
    print(f"bench room: {numbers['tables']} tables for {numbers['seconds']} s through one mosquitto")
    report_line("entries journalled / counted by the room", f"{numbers['journalled']} / {numbers['counted']}")
    report_line("entries not counted 30 s after the end", numbers["lost"], "0", fmt="{:d}")
    report_line("entries per second", numbers["entries_per_s"], fmt="{:.1f}")
    report_line("journal write -> room page, p50 (ms)", numbers["p50_ms"], fmt="{:.1f}")
    report_line("journal write -> room page, p99 (ms)", numbers["p99_ms"], f"<= {TARGET_P99_MS:.0f}", fmt="{:.1f}")
    report_line("room CPU (% of one core)", numbers["room_cpu_percent"], fmt="{:.1f}")
    report_line("room CPU idle, tables linked (% of one core)", numbers["room_idle_cpu_percent"], fmt="{:.1f}")
    report_line("room CPU per entry, idle taken out (ms)", numbers["room_cpu_ms_per_entry"], fmt="{:.3f}")
    report_line("room memory (MB resident)", numbers["room_rss_mb"], fmt="{:.1f}")
    report_line("broker CPU (% of one core)", numbers["broker_cpu_percent"], fmt="{:.1f}")
    report_line("room page updates sent", numbers["page_updates"], fmt="{:d}")
    report_line(f"Pi 4 room, tables (x{PI_SLOWDOWN:g} CPU, {PI_BUDGET:.0%} core)", numbers["pi4_tables"], fmt="{:d}")
    p99 = numbers["p99_ms"]
    return 0 if numbers["lost"] == 0 and p99 is not None and p99 <= TARGET_P99_MS else 1


# -- the simulated tables (the child process) ---------------------------------------------------
def _simulate(url: str, first: int, tables: int, seconds: float, folder: str) -> None:
    """``tables`` tables (named from ``first`` on) playing demo games' events at
    :data:`SECONDS_PER_ENTRY`, for ``seconds`` from the parent's signal."""
    from rules.game import GameSetup
    from tabletop.room.address import RoomAddress
    from tabletop.room.link import TableLink
    from tabletop.session.clock import SimClock
    from tabletop.session.core import Session, load_game_parts
    from tabletop.session.journal import Journal
    from tabletop.table.room_driver import demo_steps

    scripts = [demo_steps("letter-dice"), demo_steps("extradiction-sp")]
    parts = [load_game_parts(s["setup"]) for s in scripts]
    address = RoomAddress.parse(url)
    rng = random.Random(26 + first)
    go = threading.Event()
    signal.signal(signal.SIGUSR1, lambda *_: go.set())
    sessions, links, plans = [], [], []
    for n in range(first, first + tables):
        k = n % len(scripts)
        setup = scripts[k]["setup"]
        journal = Journal(os.path.join(folder, f"table-{n}.sqlite"))
        gs = GameSetup(setup["game"], tuple(setup["players"]), variant=setup.get("variant"), seed=setup["seed"],
                       options=dict(setup.get("options") or {}))
        session = Session.create(journal, gs, setup["board"], board=parts[k][0], lexicon=parts[k][1],
                                 clock=SimClock(), game_id=f"bench-{n}")
        sessions.append(session)
        links.append(TableLink(session, address, str(n)).start())
        plans.append((list(scripts[k]["steps"]), [0]))
    deadline = time.monotonic() + 30
    while not all(link.client.connected.is_set() for link in links) and time.monotonic() < deadline:
        time.sleep(0.1)
    print(f"ready {sum(link.client.connected.is_set() for link in links)}", flush=True)
    go.wait(120)
    started = time.monotonic()
    due = [(started + rng.expovariate(1 / SECONDS_PER_ENTRY), n) for n in range(tables)]
    while True:
        when, n = min(due)
        if when - started > seconds:
            break
        time.sleep(max(0.0, when - time.monotonic()))
        steps, at = plans[n]
        if at[0] < len(steps):
            step = steps[at[0]]
            at[0] += 1
            session = sessions[n]
            if step["kind"] == "event":
                session.clock.set(step["event"]["t"])             # type: ignore[attr-defined]
                session.submit(step["event"], source=step.get("source"))
            else:
                session.undo()
        due[n] = (when + rng.expovariate(1 / SECONDS_PER_ENTRY), n)
    print("done", flush=True)
    print(f"journalled {sum(s.journal.count(s.game_id) for s in sessions)}", flush=True)
    time.sleep(60)                                   # linked until the room has it all (then terminated)


if __name__ == "__main__":
    _simulate(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5])
