"""The search players compile once per game into numba's cache (issue 32): each game's copy of
:mod:`simlab.search.algorithms` binds its own step functions by name, so a second process's first
search decision is read from the cache, and a change of anything the search reads gives a new copy."""
import json
import os
import subprocess
import sys

import numpy as np

from simlab.search.specialise import specialise
from toy_nim import MODEL

FIRST_DECISION = """
import json, time
import numpy as np
from simlab.core.game import get_game
from simlab.core.strategy import get_strategy
from simlab.core.rng import N_STREAMS, root_key, seed_streams
spec = get_game("legend-raiders")
rollout = get_strategy("legend-raiders", "rollout")
cfg = spec.params.pack(spec.params.resolve({}))
state = np.zeros(spec.model.state_size(), np.int32)
streams = np.zeros((N_STREAMS, 4), np.uint64)
seed_streams(root_key(3), 0, streams)
spec.model.new_game(state, cfg, 2, streams)
legal = np.zeros(1024, np.int32)
n = spec.model.legal(state, cfg, legal)
obs = np.zeros_like(state)
spec.model.observe(state, 0, obs)
row = np.zeros(10)
row[:9] = rollout.vector({})
t = time.perf_counter()
i = rollout.decide(obs, cfg, 0, legal, n, row, np.array([1, 2, 3, 4], np.uint64))
print(json.dumps({"index": int(i), "seconds": time.perf_counter() - t,
                  "misses": len(rollout.decide.stats.cache_misses), "hits": sum(rollout.decide.stats.cache_hits.values()),
                  "file": rollout.decide.py_func.__code__.co_filename}))
"""


def first_decision(folder):
    out = subprocess.run([sys.executable, "-c", FIRST_DECISION], capture_output=True, text=True, timeout=600,
                         env={**os.environ, "SIMLAB_SEARCH_CACHE": str(folder)})
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_second_process_reads_the_search_from_the_cache(tmp_path):
    first = first_decision(tmp_path)
    second = first_decision(tmp_path)
    assert first["misses"] == 1 and first["hits"] == 0        # compiled, then cached
    assert second["misses"] == 0 and second["hits"] == 1      # read from the cache: no compile
    assert second["index"] == first["index"] and second["file"] == first["file"]
    assert second["file"].startswith(str(tmp_path))


def test_a_copy_is_named_by_what_it_reads_so_a_change_never_meets_a_stale_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SIMLAB_SEARCH_CACHE", str(tmp_path))
    table = (np.zeros(1, np.int64), np.zeros((1, 9), np.float64))
    label = f"toy-nim {tmp_path.name}"   # (a label of its own: no copy of it is loaded in this process yet)
    one = specialise(label, MODEL, table)
    assert specialise(label, MODEL, table) is one                     # the same copy in one process
    other = specialise(label, MODEL, (np.zeros(1, np.int64), np.ones((1, 9), np.float64)))
    assert other is not one and other.__file__ != one.__file__      # another table: another copy
    assert sorted(p.name for p in tmp_path.glob("*.py")) == sorted([os.path.basename(one.__file__),
                                                                   os.path.basename(other.__file__)])
    bound = open(one.__file__).read().split("# BOUND PER GAME")[1].split("# END BOUND")[0]
    assert "to_move = _sys.modules['toy_nim'].to_move" in bound and "None" not in bound


def test_the_play_outs_compile_without_reference_counts():
    """Each game's play-out loop and play-out policy are lean (``simlab.core.play.lean``), as the
    kernels' loops are: compiled with numba's reference counts, the rules they call spent a third of
    a Loot Island play-out counting (perf, issue 32)."""
    from simlab.core.model import ROLLOUT
    from simlab.core.strategy import strategies_for
    from simlab.search.players import SEARCH_MODELS

    for game in ("karuba", "loot-island", "jamaica", "legend-raiders"):
        strategies_for(game)   # registers the game's search model
        m = SEARCH_MODELS[game]
        assert m.search.play_to_end.targetoptions.get("_nrt") is False, game
        assert m.model[ROLLOUT].targetoptions.get("_nrt") is False, game


def test_what_a_play_out_runs_once_or_at_every_treasure_allocates_nothing():
    """The sample a play-out starts from (``determinize``), the end scoring every play-out reaches,
    and Loot Island's treasure values (at every treasure a play-out takes) are lean: they work in
    scratch on their stacks (``simlab.core.scratch``). With arrays of their own, allocating and
    counting were 13% of a Loot Island rollout decision (perf, issue 32)."""
    from simlab.games.legend_raiders import scoring as lr_scoring
    from simlab.games.legend_raiders import step as lr_step
    from simlab.games.loot_island import scoring as li_scoring
    from simlab.games.loot_island import step as li_step

    for fn in (li_step.determinize, li_step.order_events, li_scoring.score_treasures, li_scoring.healer_taker,
               li_scoring.rerank_crowns, li_scoring.treasure_value, li_scoring.book_value, lr_step.determinize,
               lr_scoring.final_scoring):
        assert fn.targetoptions.get("_nrt") is False, fn.__name__
