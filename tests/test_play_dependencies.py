"""What playing installs (`./tabletop.sh demo`, the Pi): the project's own dependencies, never the
training tools. torch (the models' trainer, ~750 MB) is only in the ``train`` extra, and nothing the
table runs imports it: the networks run from ONNX files."""

from __future__ import annotations

import ast
import pathlib
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]
RUNTIME_PACKAGES = ("rules", "vision", "hardware", "firmware_bridge", "tabletop")
TRAINING_ONLY = {"torch", "onnx", "torchvision"}


def _name(requirement: str) -> str:
    return requirement.split(";")[0].split("[")[0].split("=")[0].split(">")[0].split("<")[0].strip().lower()


def test_playing_installs_no_training_tool():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    play = {_name(r) for r in project["dependencies"]}
    assert play and not play & TRAINING_ONLY
    assert {"torch"} <= {_name(r) for r in project["optional-dependencies"]["train"]}


def test_nothing_the_table_runs_imports_a_training_tool():
    imports = []
    for package in RUNTIME_PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                    [node.module or ""] if isinstance(node, ast.ImportFrom) else []
                imports += [(str(path.relative_to(ROOT)), n) for n in names if n.split(".")[0] in TRAINING_ONLY]
    assert imports == []
