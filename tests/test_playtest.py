"""The playtest seat (``simlab play``): every game with a ``Table`` (simlab.core.table).

* A person who decides exactly as a bot would (same strategy, same stream) plays exactly the
  kernel's game: rows and every trace event. So the session plays the real rules, a person's seat
  takes nothing from chance, and a record's rows are a run's rows.
* The screen shows nothing hidden: the hidden state re-randomised (``determinize``), the same screen
  and the same words for the choices; every legal choice has words of its own.
* "What happened since your last decision" is the seat's narration, told once and in order.
* Undo replays chance identically; a saved game loads to the same state; a finished game's record
  replays with ``simlab trace --record`` and reads with ``simlab report``.
"""
from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from simlab.core.errors import SimlabError
from simlab.core.game import available_games, get_game
from simlab.core.results import load as load_run
from simlab.core.rng import N_STREAMS, STRATEGY_STREAM, randint, root_key, seed_streams
from simlab.core.runner import RunConfig, prepared
from simlab.core.strategy import BLIND_COLUMN, HUMAN, MAX_STRATEGY_PARAMS, SEAT_PARAMS_WIDTH, UNIFORM, get_strategy
from simlab.playtest.record import write_record
from simlab.playtest.session import Session, load, replay

GAMES = [g for g in available_games() if get_game(g).table is not None]
BUILT_IN = ("karuba", "loot-island", "jamaica", "legend-raiders")


def test_every_built_in_game_seats_a_person():
    assert set(BUILT_IN) <= set(GAMES)


def config(game, players, seats, seed=7, params=None):
    return RunConfig(game=game, players=players, seats=tuple(seats), games=1, seed=seed, params=params or {})


def as_bot(session, strategy, seat):
    """The index ``strategy`` would answer at the pending decision, drawn from the seat's own stream
    as built-in play draws it (``simlab.core.play.seat_pick``)."""
    decision = session.pending
    stream = session.streams[STRATEGY_STREAM + seat]
    if strategy.sight == UNIFORM:
        return int(randint(stream, len(decision.legal)))
    row = np.zeros(SEAT_PARAMS_WIDTH)
    row[:MAX_STRATEGY_PARAMS] = strategy.vector({})
    row[BLIND_COLUMN] = strategy.sight
    return int(strategy.decide(decision.obs.copy(), session.cfg, decision.seat, decision.legal.astype(np.int32),
                               len(decision.legal), row, stream))


def settings(spec):
    counts = sorted({spec.min_players, spec.max_players})
    return [(n, {}) for n in counts] + [(spec.max_players, dict(v)) for v in spec.variants.values()][:2]


@pytest.mark.parametrize("game", GAMES)
def test_a_person_deciding_as_a_bot_plays_exactly_the_kernels_game(game):
    """Rows and the whole trace of a session whose people answer as the bot would equal built-in
    play's game 0: the session's deal, bots, chance, end and rows are the kernel's."""
    spec = get_game(game)
    for players, params in settings(spec):
        bots = spec.default_mix(players)
        for people in ((0,), tuple(range(0, players, 2))):
            seats = [HUMAN if s in people else b for s, b in enumerate(bots)]
            session = Session(config(game, players, seats, seed=players + 3, params=params))
            strategies = {s: get_strategy(game, bots[s]) for s in people}
            while not session.over:
                seat = session.pending.seat
                session.choose(as_bot(session, strategies[seat], seat))
            kernel = prepared(config(game, players, bots, seed=players + 3, params=params).to_dict())
            out, events = kernel.play(0, 1, log_capacity=50_000)
            np.testing.assert_array_equal(session.rows, out[0], err_msg=f"{game} {players}p {params} {people}")
            np.testing.assert_array_equal(session.log[:session.events], events)
            assert session.frame()["strategy"].tolist() == seats


def random_sessions(game, n_games=3, seed=0):
    """Sessions at every person's decision of random play (every seat a person), all player counts."""
    spec = get_game(game)
    rng = np.random.default_rng(seed)
    for players in range(spec.min_players, spec.max_players + 1):
        for g in range(n_games):
            session = Session(config(game, players, [HUMAN] * players, seed=100 * players + g))
            while not session.over:
                yield session
                session.choose(int(rng.integers(len(session.pending.legal))))


@pytest.mark.parametrize("game", GAMES)
def test_the_screen_and_the_words_show_nothing_hidden_and_name_every_choice_apart(game):
    """At every decision of random play: the hidden state re-drawn three times (the game's
    ``determinize``, what a seat cannot tell from the truth) gives the same screen and the same words;
    the legal choices' words are all different."""
    spec = get_game(game)
    model = spec.model
    checked = 0
    for k, session in enumerate(random_sessions(game)):
        decision = session.pending
        words = session.words(decision)
        assert len(set(words)) == len(words), (game, words)
        assert all(w and "\n" not in w for w in words)
        if k % 5:
            continue
        screen = session.screen(decision)
        assert screen.strip()
        rng = np.array([11, 12, 13, k + 1], np.uint64)
        for _ in range(3):
            state = np.zeros(model.state_size(), np.int32)
            model.determinize(decision.obs.copy(), decision.seat, session.cfg, rng, state)
            obs = np.zeros_like(state)
            model.observe(state, decision.seat, obs)
            again = type(decision)(decision.seat, decision.legal, obs)
            assert session.screen(again) == screen
            assert session.words(again) == words
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("game", GAMES)
def test_what_happened_since_the_last_decision_is_told_once_and_in_order(game):
    """The news before each decision continues the seat's narration where the last news ended: the
    narration of a prefix of the events is a prefix of the whole narration, and nothing is told twice."""
    decisions = 0
    for session in random_sessions(game, n_games=1, seed=3):
        seat = session.pending.seat
        whole = [line for line in session.narration(seat) if line.strip()]
        before = [line for line in session.narration(seat, session.told(seat)) if line.strip()]
        assert whole[:len(before)] == before
        assert before + session.news(seat) == whole
        decisions += 1
    assert decisions > 10


@pytest.mark.parametrize("game", GAMES)
def test_undo_goes_back_to_the_persons_previous_decision_and_chance_replays_identically(game):
    spec = get_game(game)
    players = spec.min_players
    session = Session(config(game, players, [HUMAN] + list(spec.default_mix(players)[1:]), seed=5))
    assert not session.undo()   # nothing decided yet
    rng = np.random.default_rng(1)
    states = []
    for _ in range(6):
        if session.over:
            break
        states.append((session.state.copy(), session.streams.copy(), session.events))
        session.choose(int(rng.integers(len(session.pending.legal))))
    made = list(session.choices)
    after = session.state.copy(), session.log[:session.events].copy()
    assert session.undo()
    state, streams, events = states[-1]
    np.testing.assert_array_equal(session.state, state)
    np.testing.assert_array_equal(session.streams, streams)
    assert session.events == events and session.choices == made[:-1]
    session.choose(int(np.flatnonzero(session.pending.legal == made[-1])[0]))   # the same choice again
    np.testing.assert_array_equal(session.state, after[0])
    np.testing.assert_array_equal(session.log[:session.events], after[1])


@pytest.mark.parametrize("game", GAMES)
def test_a_saved_game_loads_to_the_same_decision(game, tmp_path):
    spec = get_game(game)
    session = Session(config(game, spec.max_players, [HUMAN] * spec.max_players, seed=9))
    rng = np.random.default_rng(2)
    for _ in range(7):
        session.choose(int(rng.integers(len(session.pending.legal))))
    path = session.save(tmp_path / "game.json")
    loaded = load(path)
    np.testing.assert_array_equal(loaded.state, session.state)
    np.testing.assert_array_equal(loaded.log[:loaded.events], session.log[:session.events])
    assert loaded.choices == session.choices and loaded.labels == session.labels


def test_a_saved_game_that_does_not_replay_is_refused_in_one_line(tmp_path):
    session = Session(config("karuba", 2, [HUMAN, "builder"]))
    data = session.to_dict()
    data["choices"] = [999]
    with pytest.raises(SimlabError, match="choice 1 .* is not legal"):
        replay(data)
    (tmp_path / "x.json").write_text("{not json")
    with pytest.raises(SimlabError, match="not a saved game"):
        load(tmp_path / "x.json")
    (tmp_path / "y.json").write_text(json.dumps({"hello": 1}))
    with pytest.raises(SimlabError, match="not a simlab playtest"):
        load(tmp_path / "y.json")


def play_out(session, seed=0):
    rng = np.random.default_rng(seed)
    while not session.over:
        session.choose(int(rng.integers(len(session.pending.legal))))
    return session


@pytest.mark.parametrize("game", GAMES)
def test_a_finished_game_is_a_record_that_trace_replays_and_report_reads(game, tmp_path):
    """The record is a run directory of one game (a run's rows, the person's strategy ``human``) and
    the choices: ``simlab.load`` reads the rows, ``simlab trace --record`` narrates the same game,
    ``simlab report`` writes a playtest report."""
    spec = get_game(game)
    session = play_out(Session(config(game, 2, [HUMAN, spec.default_mix(2)[1]], seed=4)))
    folder = tmp_path / "rec"
    write_record(session, folder)
    frame = load_run(folder)
    assert frame["strategy"].tolist() == [HUMAN, spec.default_mix(2)[1]]
    assert frame["score"].tolist() == session.rows[:, 1].tolist()
    again = load(folder)
    np.testing.assert_array_equal(again.rows, session.rows)
    trace = subprocess.run([sys.executable, "-m", "simlab", "trace", "--record", str(folder), "--every", "0"],
                           capture_output=True, text=True, timeout=600)
    assert trace.returncode == 0, trace.stderr
    assert trace.stdout.splitlines()[1:] == session.trace(0).splitlines()
    assert "1 human" in trace.stdout.splitlines()[0]
    report = subprocess.run([sys.executable, "-m", "simlab", "report", str(folder)], capture_output=True, text=True,
                            timeout=600)
    assert report.returncode == 0, report.stderr
    text = (folder / "report" / "report.md").read_text()
    assert "the person in seat 1 finished" in text and "simlab trace --record" in text


def test_a_record_never_overwrites(tmp_path):
    session = play_out(Session(config("karuba", 2, [HUMAN, "builder"])))
    write_record(session, tmp_path / "rec")
    with pytest.raises(SimlabError, match="already holds files"):
        write_record(session, tmp_path / "rec")


def test_a_hint_names_the_best_heuristics_choice_and_the_searchs_estimates_and_changes_nothing():
    """Karuba: the hint's heuristic choice is what that heuristic decides on the observation, the
    search's candidates are legal with win shares in 0..1, the same question gets the same answer,
    and the game goes on as if no hint had been asked."""
    from simlab.playtest.hint import HINT_DEAL, hint

    session = Session(config("karuba", 2, [HUMAN, "builder"], seed=12))
    for _ in range(5):
        session.choose(0)
    decision = session.pending
    state, streams = session.state.copy(), session.streams.copy()
    first = hint(session, decision, samples=60)
    assert first == hint(session, decision, samples=60)
    np.testing.assert_array_equal(session.state, state)
    np.testing.assert_array_equal(session.streams, streams)
    builder = get_strategy("karuba", first.heuristic)
    row = np.zeros(SEAT_PARAMS_WIDTH)
    row[:MAX_STRATEGY_PARAMS] = builder.vector({})
    assert first.heuristic == "builder"
    streams = np.zeros((N_STREAMS, 4), np.uint64)
    seed_streams(root_key(12), HINT_DEAL + len(session.choices), streams)
    assert first.heuristic_choice == builder.decide(decision.obs.copy(), session.cfg, 0, decision.legal.astype(np.int32),
                                                    len(decision.legal), row, streams[0])
    assert all(0 <= i < len(decision.legal) and 0 <= share <= 1 for i, share in first.candidates)
    assert [s for _, s in first.candidates] == sorted((s for _, s in first.candidates), reverse=True)
