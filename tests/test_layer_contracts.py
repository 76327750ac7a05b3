"""The layers, as the running interpreter sees them: importing any module of ``rules``,
``vision``, ``hardware`` or ``firmware_bridge`` never loads ``tabletop`` (nor the other layers
each package's docstring says it stays clear of), and ``rules`` loads neither OpenCV nor NumPy.

Each package is walked (:func:`pkgutil.walk_packages`) and every one of its modules imported in a
fresh interpreter, which then reports the modules it holds; the import-graph test
(``tests/test_import_graph.py``) checks the same layers in the source, imports inside
functions included. No module is skipped: every one imports on a machine without the Pi's
camera, GPIO or serial hardware (gpiozero falls back to mock pins, the serial code opens ports
only when asked).
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]

#: package -> the top-level modules that importing any of its modules must never load
FORBIDDEN = {
    "rules": ("tabletop", "vision", "hardware", "firmware_bridge", "cv2", "numpy"),
    "vision": ("tabletop", "hardware", "firmware_bridge"),
    "hardware": ("tabletop", "vision", "firmware_bridge", "rules"),
    "firmware_bridge": ("tabletop", "vision", "hardware"),
}

#: run in the child: import every module of the package, noting which of them first brought in
#: a forbidden module, and print one JSON object
_CHILD = """
import importlib, json, pkgutil, sys, traceback

package, forbidden = sys.argv[1], tuple(sys.argv[2:])

def loaded():
    return {m for m in sys.modules if m.split(".")[0] in forbidden}

report = {"modules": [], "failed": {}, "brought_in": {}}
before = loaded()
try:
    root = importlib.import_module(package)
except Exception:
    report["failed"][package] = traceback.format_exc(limit=3)
else:
    report["modules"].append(package)
    report["brought_in"][package] = sorted(loaded() - before)
    def failed(name):
        report["failed"][name] = traceback.format_exc(limit=3)
    for info in pkgutil.walk_packages(root.__path__, package + ".", onerror=failed):
        before = loaded()
        try:
            importlib.import_module(info.name)
        except Exception:
            failed(info.name)
            continue
        report["modules"].append(info.name)
        report["brought_in"][info.name] = sorted(loaded() - before)
report["loaded"] = sorted(loaded())
print(json.dumps(report))
"""


def import_everything(package: str, forbidden: tuple[str, ...]) -> dict:
    """Import every module of ``package`` in a fresh interpreter; its report."""
    done = subprocess.run([sys.executable, "-c", _CHILD, package, *forbidden], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=False, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_importing_a_layer_never_loads_the_layers_above_it(package):
    report = import_everything(package, FORBIDDEN[package])
    assert not report["failed"], f"modules of {package} that do not import: {report['failed']}"
    assert len(report["modules"]) > 1, f"walked nothing in {package}"
    culprits = {name: got for name, got in report["brought_in"].items() if got}
    assert not report["loaded"], (f"importing {package}'s modules loaded {report['loaded']}; "
                                  f"first brought in by: {culprits}")
    assert not any(m == "tabletop" or m.startswith("tabletop.") for m in report["loaded"])


def test_the_child_would_see_a_forbidden_module():
    """The check can fail: ``tabletop``'s own modules do load ``rules``."""
    report = import_everything("tabletop.games", ("rules",))
    assert "rules" in report["loaded"]
    assert any(report["brought_in"].values())
