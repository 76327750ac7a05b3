"""First-edge debouncing (hardware.edges.FirstEdge, the project's one debouncer): the stamp is the
first edge, a held button presses once, chatter never adds a press, and a bouncy switch keeps the
race it won."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.edges import FirstEdge
from rules.arbitration import Arbiter


def test_bouncy_switch_keeps_its_first_edge_and_wins_the_race():
    switches = {"Ann": FirstEdge(), "Ben": FirstEdge()}
    a = Arbiter(["Ann", "Ben"])
    a.open(0)
    # Ann's switch bounces for 3 ms; Ben's is clean but 1 ms later than Ann's first edge.
    edges = [("Ann", True, 1_000), ("Ann", False, 1_050), ("Ann", True, 1_400), ("Ann", False, 2_000),
             ("Ben", True, 2_000), ("Ann", True, 3_900), ("Ann", False, 40_000), ("Ben", False, 41_000)]
    for player, down, t in edges:
        stamp = switches[player].edge(down, t)
        if stamp is not None:
            a.press(player, stamp)
    assert [(b.player, b.t) for b in a.queue] == [("Ann", 1_000), ("Ben", 2_000)]


def test_button_held_down_presses_once():
    f = FirstEdge()
    assert f.edge(True, 0) == 0
    assert all(f.edge(True, t) is None for t in range(10, 10_000_000, 100_000))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 2_000), st.integers(1, 30)), min_size=1, max_size=20),
       st.integers(20_000, 60_000))
def test_chatter_never_adds_presses(bursts, gap):
    """Each burst is one real press: a first edge then chatter shorter than the re-arm time."""
    f = FirstEdge(rearm_us=20_000)
    t, made, firsts = 0, [], []
    for spacing, bounces in bursts:
        t += gap
        firsts.append(t)
        down = True
        for _ in range(bounces * 2 + 1):
            stamp = f.edge(down, t)
            if stamp is not None:
                made.append(stamp)
            down = not down
            t += spacing % 900 + 1  # chatter edges less than 1 ms apart
        f.edge(False, t)  # finally let go
    assert made == firsts
