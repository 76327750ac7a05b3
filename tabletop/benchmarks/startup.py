"""How fast the commands start: ``import rules``, ``tabletop replay`` and ``tabletop score``.

Each command runs as a fresh process, as a person would run it, once to warm the caches (the
compiled dictionaries in ``~/.cache/tabletop``, Python's bytecode) and then ``repeats`` times;
the median wall time and the largest resident memory are reported against the targets of
issue 11 (replay <= 0.3 s; score <= 0.6 s and <= 120 MB; ``import rules`` <= 50 ms).
"""

from __future__ import annotations

import json
import os
import pathlib
import statistics
import subprocess
import sys
import time
from typing import Any, NamedTuple

from tabletop.errors import UserError

ROOT = pathlib.Path(__file__).resolve().parents[2]
TARGETS = {"import_rules_ms": 50.0, "replay_s": 0.3, "score_s": 0.6, "score_mb": 120.0}
_IMPORT_RULES = "import time; t = time.perf_counter(); import rules; print(time.perf_counter() - t)"


#: runs the tabletop command in the child and reports, at exit, its own peak resident memory and
#: how much of what is resident then is mapped from files (Linux's ``RssFile``: shared libraries
#: such as OpenCV's, and the memory-mapped caches)
_WITH_PEAK = ("import atexit, resource, sys\n"
              "def report():\n"
              "    sys.stderr.write('\\nPEAK_KB %d\\n' % resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
              "    try:\n"
              "        with open('/proc/self/status') as status:\n"
              "            sys.stderr.writelines(f'FILE_KB {line.split()[1]}\\n' for line in status\n"
              "                                  if line.startswith('RssFile:'))\n"
              "    except OSError:\n"
              "        pass\n"
              "atexit.register(report)\n"
              "from tabletop.cli import main\n"
              "sys.exit(main(sys.argv[1:]))\n")


def _reported_mb(stderr: str, key: str) -> float:
    """The last ``KEY kilobytes`` line the child wrote, in MB (0 when it wrote none)."""
    found = [int(line.split()[1]) for line in stderr.splitlines() if line.startswith(key + " ")]
    return found[-1] / 1024.0 if found else 0.0


class _Run(NamedTuple):
    wall_s: float     #: wall seconds
    peak_mb: float    #: peak resident memory
    file_mb: float    #: of what was resident at exit, the part mapped from files
    out: str          #: standard output


def _run(argv: list[str]) -> _Run:
    """Run ``argv`` as a fresh process and say what it took."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, env=env, cwd=ROOT, check=False)
    wall = time.perf_counter() - started
    err = done.stderr.decode(errors="replace")
    if done.returncode != 0:
        raise UserError(f"{' '.join(argv[3:5])} failed: {err.strip()[-300:]}")
    return _Run(wall, _reported_mb(err, "PEAK_KB"), _reported_mb(err, "FILE_KB"), done.stdout.decode(errors="replace"))


def measure(repeats: int = 5) -> dict[str, Any]:
    """Median wall times (and the score command's peak memory) over ``repeats`` warm runs."""
    python = sys.executable
    tabletop = [python, "-c", _WITH_PEAK]
    record = ROOT / "examples" / "sp-rulebook.json"
    photo = ROOT / "docs" / "img" / "camera-photo.jpg"
    if not record.exists() or not photo.exists():
        raise UserError(f"the benchmark needs {record} and {photo} (run it from a checkout)")
    commands = {
        "import_rules": [python, "-c", _IMPORT_RULES],
        "replay": tabletop + ["replay", str(record)],
        "score": tabletop + ["score", str(photo), "--json"],
    }
    results: dict[str, Any] = {}
    for name, argv in commands.items():
        _run(argv)                                        # warm: caches and bytecode
        runs = [_run(argv) for _ in range(repeats)]
        if name == "import_rules":
            results["import_rules_ms"] = statistics.median(float(r.out) for r in runs) * 1000
        else:
            results[f"{name}_s"] = statistics.median(r.wall_s for r in runs)
            results[f"{name}_mb"] = max(r.peak_mb for r in runs)
            results[f"{name}_file_mb"] = max(r.file_mb for r in runs)
    return results


def run(args: Any) -> int:
    """``tabletop bench startup``: print the measured numbers beside their targets."""
    results = measure(repeats=2 if args.quick else 5)
    if args.json:
        print(json.dumps({"results": results, "targets": TARGETS}))
        return 0
    rows = [("import rules", f"{results['import_rules_ms']:.1f} ms", "<= 50 ms",
             results["import_rules_ms"] <= TARGETS["import_rules_ms"]),
            ("tabletop replay examples/sp-rulebook.json", f"{results['replay_s']:.2f} s", "<= 0.3 s",
             results["replay_s"] <= TARGETS["replay_s"]),
            ("tabletop score PHOTO (wall)", f"{results['score_s']:.2f} s", "<= 0.6 s",
             results["score_s"] <= TARGETS["score_s"]),
            ("tabletop score PHOTO (peak resident)", f"{results['score_mb']:.0f} MB", "<= 120 MB",
             results["score_mb"] <= TARGETS["score_mb"])]
    for label, value, target, ok in rows:
        print(f"{label:<44} {value:>10}   target {target:<10} {'ok' if ok else 'OVER'}")
    if results["score_file_mb"]:
        print(f"{'  of it mapped from files at exit':<44} {results['score_file_mb']:>7.0f} MB   "
              "(shared libraries and caches; most of a library pip has just written can be mapped "
              "in, until the page cache is dropped or the machine restarts)")
    return 0
