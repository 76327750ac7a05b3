"""The memory-mapped array cache: built once, mapped afterwards, rebuilt when its source changes
or its files are damaged, and never an error when the cache cannot be written."""

import numpy as np
import pytest

from rules.board import parse_board
from vision import arraycache
from vision.cells import CellJudge


def counting_build(calls, value=1.0):
    def build():
        calls.append(1)
        return {"grid": np.full((4, 5), value, np.float32), "count": np.arange(3), "scale": 0.25}
    return build


def test_built_once_then_mapped_read_only(tmp_path):
    calls = []
    first = arraycache.arrays(tmp_path, "k", counting_build(calls))
    again = arraycache.arrays(tmp_path, "k", counting_build(calls))
    assert len(calls) == 1
    for name in first:
        assert np.array_equal(first[name], again[name]) and first[name].dtype == again[name].dtype
    assert type(again["grid"]) is np.ndarray and not again["grid"].flags.writeable
    assert again["scale"].ndim == 0 and float(again["scale"]) == 0.25


def test_a_new_source_is_a_new_key(tmp_path):
    source = tmp_path / "weights.bin"
    source.write_bytes(b"one")
    before = arraycache.source_key("model", source)
    source.write_bytes(b"two")
    assert arraycache.source_key("model", source) != before
    calls = []
    arraycache.arrays(tmp_path, before, counting_build(calls, 1.0))
    changed = arraycache.arrays(tmp_path, arraycache.source_key("model", source), counting_build(calls, 2.0))
    assert len(calls) == 2 and float(changed["grid"][0, 0]) == 2.0


@pytest.mark.parametrize("damage", ["truncate", "garbage", "delete", "no manifest", "empty manifest", "a file"])
def test_damaged_cache_is_built_again(tmp_path, damage):
    calls = []
    arraycache.arrays(tmp_path, "k", counting_build(calls))
    place = tmp_path / "k"
    grid = place / "grid.npy"
    if damage == "truncate":
        grid.write_bytes(grid.read_bytes()[:-7])
    elif damage == "garbage":
        grid.write_bytes(b"\x00" * 300)
    elif damage == "delete":
        grid.unlink()
    elif damage == "no manifest":
        (place / arraycache.MANIFEST).unlink()
    elif damage == "empty manifest":
        (place / arraycache.MANIFEST).write_text("")
    else:
        for path in place.iterdir():
            path.unlink()
        place.rmdir()
        place.write_text("not a folder")
    rebuilt = arraycache.arrays(tmp_path, "k", counting_build(calls))
    assert len(calls) == 2 and np.array_equal(rebuilt["grid"], np.ones((4, 5)))
    mapped = arraycache.arrays(tmp_path, "k", counting_build(calls))
    assert len(calls) == 2 and not mapped["grid"].flags.writeable       # repaired: mapped again
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k"]          # nothing left behind


def test_unwritable_cache_still_gives_the_arrays(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache folder should be")
    calls = []
    made = arraycache.arrays(blocked, "k", counting_build(calls))
    assert len(calls) == 1 and made["count"].tolist() == [0, 1, 2]
    assert arraycache.arrays(None, "k", counting_build(calls))["scale"] == 0.25


def test_cached_judge_reads_as_a_fresh_one(tmp_path, marks_board):
    canon = np.random.default_rng(1).integers(120, 255, (10 * 30, 10 * 30, 3), dtype=np.uint8)
    canon[100:200, 60:240] = (90, 120, 200)                      # something hand-like over the board
    fresh = CellJudge(marks_board, 30).analyse(canon)
    built = CellJudge.cached(marks_board, 30, tmp_path).analyse(canon)
    mapped_judge = CellJudge.cached(marks_board, 30, tmp_path)
    assert not mapped_judge.ref_min.flags.writeable and isinstance(mapped_judge.min_ink, float)
    mapped = mapped_judge.analyse(canon)
    for read in (built, mapped):
        for name in ("states", "ink_fraction", "darkness", "occlusion", "letter_darkness"):
            assert np.array_equal(getattr(read, name), getattr(fresh, name)), name
    other = parse_board("rows = 3\ncols = 3\n[layers]\nvalues = %s\nzones = %s" % (["111"] * 3, ["..."] * 3))
    CellJudge.cached(other, 30, tmp_path)
    assert len([p for p in tmp_path.iterdir() if p.name.startswith("judge-")]) == 2   # a board of its own
