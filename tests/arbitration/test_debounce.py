"""First-edge debouncing: the stamp is the first edge, chatter never adds a press."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.arbitration import Arbiter, EdgeDebouncer


def test_bouncy_switch_keeps_its_first_edge_and_wins_the_race():
    d = EdgeDebouncer()
    a = Arbiter(["Ann", "Ben"])
    a.open(0)
    # Ann's switch bounces for 3 ms; Ben's is clean but 1 ms later than Ann's first edge.
    edges = [("Ann", True, 1_000), ("Ann", False, 1_050), ("Ann", True, 1_400), ("Ann", False, 2_000),
             ("Ben", True, 2_000), ("Ann", True, 3_900), ("Ann", False, 40_000), ("Ben", False, 41_000)]
    for player, down, t in edges:
        stamp = d.edge(player, down, t)
        if stamp is not None:
            a.press(player, stamp)
    assert [(b.player, b.t) for b in a.queue] == [("Ann", 1_000), ("Ben", 2_000)]


def test_button_held_down_presses_once():
    d = EdgeDebouncer()
    assert d.edge(1, True, 0) == 0
    assert all(d.edge(1, True, t) is None for t in range(10, 10_000_000, 100_000))
    assert d.held(1)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 2_000), st.integers(1, 30)), min_size=1, max_size=20),
       st.integers(20_000, 60_000))
def test_chatter_never_adds_presses(bursts, gap):
    """Each burst is one real press: a first edge then chatter shorter than the re-arm time."""
    d = EdgeDebouncer(rearm_us=20_000)
    t, made, firsts = 0, [], []
    for spacing, bounces in bursts:
        t += gap
        firsts.append(t)
        down = True
        for _ in range(bounces * 2 + 1):
            stamp = d.edge("p", down, t)
            if stamp is not None:
                made.append(stamp)
            down = not down
            t += spacing % 900 + 1  # chatter edges less than 1 ms apart
        d.edge("p", False, t)  # finally let go
    assert made == firsts
