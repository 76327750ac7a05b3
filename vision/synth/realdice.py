"""Real photos of plain letter dice: the "Boggle Boards" photos in ``shared/data/dice/boggle-boards``
(Public Domain, by the makers of BoardBoss, published through Roboflow: see its SOURCE.md and
vision/models/NOTICE). The data stay in ``shared/``; this module only reads the files.

Each photo (416x416, stretched from the camera's frame) has a box and a label per die's top face.
The photos are split once, by *roll* rather than by file: the same tray was often photographed
several times (other backgrounds, other angles), and such photos share the multiset of their
faces. Photos whose faces overlap by more than :data:`SAME_ROLL` (Jaccard) are one group, and a
group's split is a hash of its first file name: about 70 % ``train``, 15 % ``val`` (the only
photos any choice was tuned on) and 15 % ``test`` (read only for the final numbers). The split is
written to :data:`SPLIT_PATH` (``scripts/train_plain_dice.py --write-split``) and read from there.

>>> face_of("qu"), face_of("wild"), face_of("e")
('QU', '*', 'E')
>>> split_of_group(("00a545913dc5c49d43ac2711bd534720.jpg",)) in SPLITS
True
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import pathlib
from collections import Counter
from dataclasses import dataclass

#: the three parts of the split, in order
SPLITS = ("train", "val", "test")
#: two photos whose face multisets overlap at least this much (Jaccard) show the same roll
SAME_ROLL = 0.7
SPLIT_PATH = pathlib.Path(__file__).resolve().parents[1] / "models" / "plaindice-split.json"


def _data_dir() -> pathlib.Path:
    """``$TABLETOP_DICE_DATA``, else ``shared/data/dice/boggle-boards`` beside the checkout, else /work/shared's."""
    if os.environ.get("TABLETOP_DICE_DATA"):
        return pathlib.Path(os.environ["TABLETOP_DICE_DATA"])
    beside = pathlib.Path(__file__).resolve().parents[3] / "shared" / "data" / "dice" / "boggle-boards"
    return beside if beside.is_dir() else pathlib.Path("/work/shared/data/dice/boggle-boards")


DATA_DIR = _data_dir()


def face_of(label: str) -> str:
    """A face as the project names it (upper case as printed, ``*`` for the wild face) from the
    data's label (lower case, ``wild``)."""
    return "*" if label == "wild" else label.upper()


@dataclass(frozen=True)
class LabelledDie:
    """One die's top face in a photo: its face and its box (x0, y0, x1, y1, pixels)."""

    face: str
    box: tuple[int, int, int, int]

    @property
    def centre(self) -> tuple[float, float]:
        """The box's centre."""
        x0, y0, x1, y1 = self.box
        return ((x0 + x1) / 2, (y0 + y1) / 2)


@dataclass(frozen=True)
class LabelledPhoto:
    """A photo's file name and its dice."""

    name: str
    dice: tuple[LabelledDie, ...]

    def path(self, data_dir: pathlib.Path | None = None) -> pathlib.Path:
        """Where the photo's file is."""
        return (data_dir or DATA_DIR) / "images" / self.name


def load_photos(data_dir: pathlib.Path | None = None) -> list[LabelledPhoto]:
    """Every labelled photo of ``annotations.csv``, by file name."""
    path = (data_dir or DATA_DIR) / "annotations.csv"
    if not path.is_file():
        raise FileNotFoundError(f"no dice photos at {path.parent} (set TABLETOP_DICE_DATA)")
    dice: dict[str, list[LabelledDie]] = {}
    with path.open(newline="") as f:
        for row in csv.DictReader(f):
            box = (int(row["xmin"]), int(row["ymin"]), int(row["xmax"]), int(row["ymax"]))
            dice.setdefault(row["filename"], []).append(LabelledDie(face_of(row["class"]), box))
    return [LabelledPhoto(name, tuple(dice[name])) for name in sorted(dice)]


def same_roll_groups(photos: list[LabelledPhoto]) -> list[tuple[str, ...]]:
    """The photos grouped by roll: linked when their faces' multisets overlap by :data:`SAME_ROLL`.

    >>> a = LabelledPhoto("a.jpg", tuple(LabelledDie(f, (0, 0, 1, 1)) for f in "ABCDEFGH"))
    >>> b = LabelledPhoto("b.jpg", tuple(LabelledDie(f, (0, 0, 1, 1)) for f in "ABCDEFGX"))
    >>> c = LabelledPhoto("c.jpg", tuple(LabelledDie(f, (0, 0, 1, 1)) for f in "STUVWXYZ"))
    >>> same_roll_groups([a, b, c])
    [('a.jpg', 'b.jpg'), ('c.jpg',)]
    """
    parent = {p.name: p.name for p in photos}

    def root(name: str) -> str:
        while parent[name] != name:
            parent[name] = parent[parent[name]]
            name = parent[name]
        return name

    faces = {p.name: Counter(d.face for d in p.dice) for p in photos}
    for i, a in enumerate(photos):
        for b in photos[i + 1:]:
            inter = sum((faces[a.name] & faces[b.name]).values())
            union = sum((faces[a.name] | faces[b.name]).values())
            if union and inter / union >= SAME_ROLL:
                parent[root(a.name)] = root(b.name)
    groups: dict[str, list[str]] = {}
    for p in photos:
        groups.setdefault(root(p.name), []).append(p.name)
    return sorted(tuple(sorted(g)) for g in groups.values())


def split_of_group(group: tuple[str, ...]) -> str:
    """A group's part of the split: the first two bytes of the SHA-256 of its first file name,
    below 70 % ``train``, below 85 % ``val``, else ``test``."""
    value = int.from_bytes(hashlib.sha256(min(group).encode()).digest()[:2], "big") / 65536
    return "train" if value < 0.70 else "val" if value < 0.85 else "test"


def make_split(photos: list[LabelledPhoto]) -> dict[str, list[str]]:
    """Every photo's part, by the rule above: ``{"train": [names], "val": [...], "test": [...]}``."""
    split: dict[str, list[str]] = {name: [] for name in SPLITS}
    for group in same_roll_groups(photos):
        split[split_of_group(group)].extend(group)
    return {name: sorted(names) for name, names in split.items()}


def load_split(path: pathlib.Path = SPLIT_PATH) -> dict[str, list[str]]:
    """The split written in the repository (file names per part)."""
    data = json.loads(path.read_text())
    return {name: list(data[name]) for name in SPLITS}


def photos_of(part: str, photos: list[LabelledPhoto] | None = None,
              split: dict[str, list[str]] | None = None) -> list[LabelledPhoto]:
    """The photos of one part of the written split (``train``, ``val`` or ``test``)."""
    if part not in SPLITS:
        raise ValueError(f"the split's parts are {', '.join(SPLITS)}, not {part!r}")
    names = set((split or load_split())[part])
    return [p for p in (photos if photos is not None else load_photos()) if p.name in names]
