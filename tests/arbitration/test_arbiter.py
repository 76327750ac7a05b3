"""The pure buzz-in arbiter (the press queue): order, ties, early presses, chatter, once a question."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.arbitration import Arbiter, Buzz, EarlyPress, Held, Penalised, Queued, Reason, Rebuzz, TieRule, TieShown

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def opened(**options) -> Arbiter:
    a = Arbiter(PLAYERS, **options)
    a.open(1_000)
    return a


def test_presses_queue_in_timestamp_order_whatever_order_they_arrive():
    a = opened()
    a.press("Cat", 5_000)
    a.press("Ann", 3_000)  # arrives later, pressed earlier
    a.press("Ben", 4_000)
    assert [b.player for b in a.queue] == ["Ann", "Ben", "Cat"]


def test_one_microsecond_apart_is_ordered():
    a = opened()
    a.press("Ben", 2_001)
    a.press("Ann", 2_000)
    assert a.next_hand() == Buzz("Ann", 2_000)


def test_repeat_press_and_chatter_never_add_a_second_entry():
    a = opened()
    assert isinstance(a.press("Ann", 2_000), Queued)
    for t in (2_010, 2_020, 2_500, 1_500):
        assert a.press("Ann", t).reason is Reason.ALREADY_QUEUED
    assert len(a.queue) == 1 and a.queue[0].t == 2_000


def test_the_first_hand_leaves_the_queue_and_a_player_done_stays_out():
    a = opened()
    a.press("Ben", 2_200)
    a.press("Ann", 2_000)
    assert a.next_hand() == Buzz("Ann", 2_000)
    a.done("Ann")                                   # answered wrong: her turn to answer is used
    assert a.press("Ann", 3_000).reason is Reason.ALREADY_ANSWERED
    assert [b.player for b in a.queue] == ["Ben"]
    a.done("Cat")                                   # answered out of turn: she loses her turn
    assert a.press("Cat", 3_100).reason is Reason.ALREADY_ANSWERED
    assert a.next_hand() == Buzz("Ben", 2_200)
    assert a.next_hand().reason is Reason.NOBODY_WAITING


def test_asker_and_strangers_never_buzz():
    a = Arbiter(["Ben", "Cat"])  # Ann asks
    a.open(0)
    assert a.press("Ann", 10).reason is Reason.NOT_A_PLAYER


# ---- early presses ---------------------------------------------------------------------------
def test_early_press_ignored_by_default_and_may_press_again():
    a = Arbiter(PLAYERS)
    assert a.press("Ann", 500).reason is Reason.EARLY
    a.open(1_000)
    assert a.press("Ann", 900).reason is Reason.EARLY  # stamped before the window, arrived after
    assert isinstance(a.press("Ann", 1_500), Queued)


def test_early_press_lockout_penalty_counts_from_the_opening():
    a = Arbiter(PLAYERS, early_press=EarlyPress.LOCKOUT(250_000))
    assert a.press("Ann", 500) == Penalised("Ann", 500, None)
    assert a.open(1_000) == [Penalised("Ann", 500, 251_000)]
    assert a.press("Ann", 200_000).reason is Reason.LOCKED_OUT
    assert a.press("Ben", 200_001).position == 0
    assert a.press("Ann", 251_000).position == 1


def test_early_press_queue_puts_early_hands_first_in_stamp_order():
    a = Arbiter(PLAYERS, early_press=EarlyPress.QUEUE)
    assert a.press("Cat", 700) == Held("Cat", 700)
    assert isinstance(a.press("Ann", 600), Held)
    decisions = a.open(1_000)
    assert [d.player for d in decisions] == ["Ann", "Cat"]
    a.press("Ben", 1_001)
    assert [b.player for b in a.queue] == ["Ann", "Cat", "Ben"]


def test_bad_early_policy_is_a_readable_error():
    with pytest.raises(ValueError, match="early_press"):
        Arbiter(PLAYERS, early_press="sometimes")


# ---- ties ------------------------------------------------------------------------------------
def test_show_tie_lets_the_asker_choose():
    a = opened()
    a.press("Ben", 2_000)
    assert a.press("Cat", 2_000).tied_with == ("Ben",)
    assert a.next_hand() == TieShown(("Ben", "Cat"))
    assert a.next_hand(choose="Ann").reason is Reason.NOT_TIED
    assert a.next_hand(choose="Cat").player == "Cat"
    a.done("Cat")
    assert a.next_hand().player == "Ben"  # no longer a tie


def test_rebuzz_sends_tied_players_back_without_using_their_turn():
    a = opened(tie_rule=TieRule.REBUZZ)
    a.press("Ben", 2_000)
    a.press("Cat", 2_000)
    a.press("Dan", 2_500)
    assert a.next_hand() == Rebuzz(("Ben", "Cat"))
    assert [b.player for b in a.queue] == ["Dan"]
    assert isinstance(a.press("Cat", 3_100), Queued)


def test_random_tie_break_is_seeded_and_fair():
    firsts = []
    for seed in range(200):
        a = opened(tie_rule=TieRule.RANDOM, seed=seed)
        a.press("Ben", 2_000)
        a.press("Cat", 2_000)
        a.press("Dan", 2_000)
        firsts.append(a.next_hand().player)
    assert {p: firsts.count(p) for p in set(firsts)}.keys() == {"Ben", "Cat", "Dan"}
    assert min(firsts.count(p) for p in ("Ben", "Cat", "Dan")) > 40
    again = opened(tie_rule=TieRule.RANDOM, seed=5)
    once = opened(tie_rule=TieRule.RANDOM, seed=5)
    for a in (again, once):
        a.press("Ben", 2_000)
        a.press("Cat", 2_000)
    assert again.queue == once.queue


def test_reset_starts_the_next_question_with_new_answerers():
    a = opened()
    a.press("Ann", 2_000)
    a.next_hand()
    a.done("Ann")
    a.reset(["Ann", "Cat", "Dan"])  # Ben asks now
    assert a.press("Ann", 3_000).reason is Reason.EARLY
    a.open(4_000)
    assert a.press("Ben", 4_100).reason is Reason.NOT_A_PLAYER
    assert isinstance(a.press("Ann", 4_200), Queued)


# ---- properties ------------------------------------------------------------------------------
presses = st.lists(
    st.tuples(st.sampled_from(PLAYERS), st.integers(min_value=0, max_value=50_000)), min_size=1, max_size=40
)


@settings(max_examples=200, deadline=None)
@given(presses, st.sampled_from(list(TieRule)), st.integers(0, 1000))
def test_queue_is_always_in_stamp_order_and_holds_each_players_first_press(events, rule, seed):
    a = Arbiter(PLAYERS, tie_rule=rule, seed=seed)
    a.open(0)
    for player, t in events:
        a.press(player, t)
    stamps = [b.t for b in a.queue]
    assert stamps == sorted(stamps)
    players = [b.player for b in a.queue]
    assert len(players) == len(set(players)) == len({p for p, _ in events})
    first = {}
    for player, t in events:  # arrival order: the first press that arrived is kept
        first.setdefault(player, t)
    assert {b.player: b.t for b in a.queue} == first


@settings(max_examples=200, deadline=None)
@given(st.permutations(PLAYERS), st.lists(st.integers(1, 3_000), min_size=4, max_size=4), st.randoms())
def test_arrival_order_never_changes_who_is_first(order, gaps, rnd):
    stamps, t = {}, 10_000
    for player, gap in zip(order, gaps):
        t += gap
        stamps[player] = t
    arrivals = list(stamps.items())
    rnd.shuffle(arrivals)
    a = opened()
    for player, stamp in arrivals:
        a.press(player, stamp)
    assert [b.player for b in a.queue] == list(order)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(PLAYERS), st.booleans(), st.integers(0, 100_000)), max_size=60))
def test_no_call_sequence_raises(ops):
    a = Arbiter(PLAYERS, early_press=EarlyPress.QUEUE, tie_rule=TieRule.REBUZZ)
    rng = random.Random(0)
    for player, flag, t in sorted(ops, key=lambda o: o[2]):
        action = rng.randrange(6)
        if action == 0:
            a.open(t)
        elif action == 1:
            a.next_hand(player if flag else None)
        elif action == 2:
            a.done(player)
        elif action == 3:
            a.reset()
        else:
            a.press(player, t)
    assert all(isinstance(b.t, int) for b in a.queue)
