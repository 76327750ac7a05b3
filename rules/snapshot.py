"""What an event may change in a game, saved and put back: the snapshot behind
:meth:`Game.trial <rules.game.Game.trial>` and the roll-back of a refused :meth:`Game.apply
<rules.game.Game.apply>`.

A game class, and every class of the objects it keeps changing state in, declares in its
``changes`` each attribute an event may change, and how that attribute is saved:

==============  ============================================  ===================================
``KEPT``        a value never changed in place                a number, text, tuple, frozenset,
                                                              a :class:`~rules.grid.Grid`, None
``COPIED``      a list, set or dict of such values            chips on squares, a bag of tiles
``NESTED``      a dict of lists or sets of such values        hands of cards, racks, rows used
``GROWN``       a list that events only ever append to        events, plays, scored turns
``RANDOM``      a ``random.Random`` (its state)               the generator that reshuffles
``OWN``         an object (or None) whose class declares      a turn order, a tile supply, the
                its own ``changes``: restored in place        round under way, a turn that a
                                                              challenge can remove
==============  ============================================  ===================================

Every other attribute must never change once the game is built: :func:`fixed_part` pictures
it, and the tests check that no event changes that picture, so a field someone forgot to
declare is caught.

>>> class Tally:
...     changes = {"count": KEPT, "seen": COPIED}
...     def __init__(self):
...         self.count, self.seen = 0, ["a"]
>>> tally = Tally()
>>> saved = Snapshot(tally)
>>> tally.count += 1; tally.seen.append("b")
>>> saved.restore()
>>> tally.count, tally.seen
(0, ['a'])
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping
from typing import Any, ClassVar, Protocol

from rules.lexicon import Lexicon


class Saving:
    """How one declared attribute is saved (:meth:`save`) and put back (:meth:`restore`); the
    base saves the value itself, for values that never change in place."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name

    def save(self, value: Any) -> Any:
        return value

    def restore(self, saved: Any) -> Any:
        """The value to put back (a snapshot is restored once: a saved copy is handed back as is)."""
        return saved


class _Copied(Saving):
    def save(self, value: Any) -> Any:
        return value.copy()


class _Nested(Saving):
    def save(self, value: Any) -> Any:
        return {key: inner.copy() for key, inner in value.items()}


class _Grown(Saving):
    def save(self, value: Any) -> Any:
        return value, len(value)

    def restore(self, saved: Any) -> Any:
        items, length = saved
        del items[length:]
        return items


class _Random(Saving):
    def save(self, value: Any) -> Any:
        return value, value.getstate()

    def restore(self, saved: Any) -> Any:
        rng, state = saved
        rng.setstate(state)
        return rng


class _Own(Saving):
    def save(self, value: Any) -> Any:
        return None if value is None else Snapshot(value)

    def restore(self, saved: Any) -> Any:
        return None if saved is None else saved.restore_owner()


#: a value never changed in place (a new one is assigned): kept as it is
KEPT = Saving("KEPT")
#: a list, set or dict of values never changed in place: copied one level
COPIED = _Copied("COPIED")
#: a dict of lists or sets of values never changed in place: the dict and each container copied
NESTED = _Nested("NESTED")
#: a list events only append to: its length, the tail cut off on restore
GROWN = _Grown("GROWN")
#: a ``random.Random``: its state
RANDOM = _Random("RANDOM")
#: an object (or None) whose class declares its own ``changes``: saved by them, restored in place
OWN = _Own("OWN")


class Stateful(Protocol):
    """A class that declares what of it may change (a game, a turn order, a tile supply...)."""

    changes: ClassVar[dict[str, Saving]]


class Snapshot:
    """The declared ``changes`` of one object, saved now; :meth:`restore` puts them back, once.

    >>> import random
    >>> class Shuffler:
    ...     changes = {"cards": COPIED, "rng": RANDOM}
    ...     def __init__(self):
    ...         self.cards, self.rng = list("ABC"), random.Random(1)
    >>> s = Shuffler()
    >>> saved = Snapshot(s)
    >>> s.rng.shuffle(s.cards)
    >>> saved.restore()
    >>> s.cards, s.rng.random() == random.Random(1).random()
    (['A', 'B', 'C'], True)
    >>> saved.restore()
    Traceback (most recent call last):
    ...
    RuntimeError: this snapshot of a Shuffler has been restored already
    """

    __slots__ = ("_owner", "_saved")

    def __init__(self, owner: Stateful):
        self._owner = owner
        self._saved: list[tuple[str, Saving, Any]] | None = [
            (name, how, how.save(getattr(owner, name))) for name, how in type(owner).changes.items()]

    def restore(self) -> None:
        """Put every declared attribute back as it was when the snapshot was taken."""
        saved, self._saved = self._saved, None
        if saved is None:
            raise RuntimeError(f"this snapshot of a {type(self._owner).__name__} has been restored already")
        owner = self._owner
        for name, how, value in saved:
            setattr(owner, name, how.restore(value))

    def restore_owner(self) -> Any:
        """:meth:`restore`, then the object itself (to be put back where it was)."""
        self.restore()
        return self._owner


_PLAIN = (str, bytes, int, float, complex, bool, type(None), enum.Enum)


def fixed_part(owner: Stateful) -> dict[str, Any]:
    """A deep picture of what ``owner`` does not declare in ``changes`` (and, inside the objects
    it declares ``OWN``, what they do not declare): no event may change it.

    Values are pictured all the way down (:func:`picture`).

    >>> class Counter:
    ...     changes = {"count": KEPT}
    ...     def __init__(self):
    ...         self.count, self.names = 0, ["a"]
    >>> c = Counter()
    >>> before = fixed_part(c)
    >>> c.count += 1
    >>> fixed_part(c) == before
    True
    >>> c.names.append("b")
    >>> fixed_part(c) == before
    False
    """
    declared = type(owner).changes
    fixed: dict[str, Any] = {}
    for name, value in vars(owner).items():
        how = declared.get(name)
        if how is None:
            fixed[name] = picture(value)
        elif how is OWN:
            fixed[name] = _Owned(value)
    return fixed


class _Owned(dict[str, Any]):
    """The fixed part of an object declared ``OWN`` (compared only while it is the same object)."""

    def __init__(self, owner: Stateful | None):
        super().__init__({} if owner is None else fixed_part(owner))
        self.owner = owner


def undeclared_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """The attributes whose :func:`fixed_part` pictures differ (names of nested ones dotted).

    >>> undeclared_changes({"a": 1, "b": {"c": 2}}, {"a": 1, "b": {"c": 3}})
    ['b.c']
    """
    out = []
    for name in sorted(before.keys() | after.keys()):
        old, new = before.get(name), after.get(name)
        if old == new or (isinstance(old, _Owned) and isinstance(new, _Owned) and old.owner is not new.owner):
            continue                  # the same, or another object in the place of one declared OWN
        if isinstance(old, dict) and isinstance(new, dict):
            out += [f"{name}.{inner}" for inner in undeclared_changes(old, new)]
        else:
            out.append(name)
    return out


def picture(value: Any) -> Any:
    """A deep, comparable copy of ``value``: containers, and objects' attributes (``vars`` and
    ``__slots__``), all the way down; a ``random.Random`` by its state; a
    :class:`~rules.lexicon.Lexicon` (read only, up to 400,000 words) by its identity.

    >>> picture({"a": [1, {2}]}) == picture({"a": [1, {2}]}), picture([1]) == picture([2])
    (True, False)
    """
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, random.Random):
        return ("Random", value.getstate())
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(picture(v) for v in value))
    if isinstance(value, (set, frozenset)):
        return (type(value).__name__, frozenset(picture(v) for v in value))
    if isinstance(value, Mapping):
        return (type(value).__name__, tuple((picture(k), picture(v)) for k, v in value.items()))
    if isinstance(value, Lexicon):
        return ("Lexicon", id(value))
    attrs = dict(getattr(value, "__dict__", {}))
    for cls in type(value).__mro__:
        for slot in getattr(cls, "__slots__", ()):
            if hasattr(value, slot):
                attrs[slot] = getattr(value, slot)
    return (type(value).__qualname__, tuple((k, picture(v)) for k, v in sorted(attrs.items())))
