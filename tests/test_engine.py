"""The run engine: Parquet parts, provenance, worker-count independence, resume, refusal."""
import json

import numpy as np
import pandas as pd
import pytest

import simlab
from simlab.core.errors import SimlabError
from simlab.core.results import load
from simlab.core.rundir import MANIFEST
from simlab.core.rng import next_u64, randint, root_key, seed_stream, uniform
from simlab.core.runner import RunConfig, run

CONFIG = RunConfig("karuba", 3, ("random", "random", "random"), games=3000, seed=17)


def test_streams_depend_only_on_seed_and_game_id():
    key = root_key(5)
    a, b = np.zeros(4, np.uint64), np.zeros(4, np.uint64)
    seed_stream(key, 12345, a)
    seed_stream(key, 12345, b)
    assert [next_u64(a) for _ in range(5)] == [next_u64(b) for _ in range(5)]
    seed_stream(key, 12346, b)
    assert next_u64(a) != next_u64(b)
    seed_stream(root_key(6), 12345, b)
    seed_stream(key, 12345, a)
    assert next_u64(a) != next_u64(b)


def test_randint_is_uniform_and_in_range():
    rng = np.zeros(4, np.uint64)
    seed_stream(root_key(1), 0, rng)
    draws = np.array([randint(rng, 6) for _ in range(60000)])
    assert draws.min() == 0 and draws.max() == 5
    counts = np.bincount(draws, minlength=6)
    assert np.abs(counts - 10000).max() < 400          # ~4 standard deviations
    u = np.array([uniform(rng) for _ in range(20000)])
    assert 0 <= u.min() and u.max() < 1 and abs(u.mean() - 0.5) < 0.01


def test_run_writes_parts_and_manifest_with_provenance(tmp_path):
    result = run(CONFIG, tmp_path / "r", workers=1, chunk_size=1000, executor="serial", progress=False)
    assert result.chunks_total == 3 and len(list((tmp_path / "r").glob("part-*.parquet"))) == 3
    manifest = json.loads((tmp_path / "r" / MANIFEST).read_text())
    assert manifest["done"] == [[0, 3]]   # chunk ranges [start, stop)
    frame = load(tmp_path / "r")
    assert len(frame) == 3000 * 3 and frame.game.is_monotonic_increasing
    prov = frame.attrs["simlab"]
    assert prov["config"]["seed"] == 17 and prov["simlab_version"] == simlab.__version__
    assert "distance_rule" in prov["assumptions_in_force"]
    assert frame.attrs["complete"]
    assert result.summary.games == 3000


def test_one_and_two_worker_processes_give_identical_frames(tmp_path):
    run(CONFIG, tmp_path / "one", workers=1, chunk_size=700, executor="serial", progress=False)
    run(CONFIG, tmp_path / "two", workers=2, chunk_size=1100, executor="processes", progress=False)
    pd.testing.assert_frame_equal(load(tmp_path / "one"), load(tmp_path / "two"))


def test_resume_completes_an_interrupted_run_without_repeating_chunks(tmp_path):
    run(CONFIG, tmp_path / "full", workers=1, chunk_size=500, executor="serial", progress=False)
    run(CONFIG, tmp_path / "cut", workers=1, chunk_size=500, executor="serial", progress=False)
    for i in (1, 4):  # as if the run had died before these chunks finished
        (tmp_path / "cut" / f"part-{i:06d}.parquet").unlink()
    result = run(CONFIG, tmp_path / "cut", workers=1, executor="serial", resume=True, progress=False)
    assert result.chunks_run == 2
    pd.testing.assert_frame_equal(load(tmp_path / "full"), load(tmp_path / "cut"))


def test_existing_foreign_or_corrupt_run_directories_are_refused(tmp_path):
    run(CONFIG, tmp_path / "r", workers=1, chunk_size=1000, executor="serial", progress=False)
    with pytest.raises(SimlabError, match="already exists"):
        run(CONFIG, tmp_path / "r", executor="serial", progress=False)
    other = RunConfig("karuba", 3, ("random",) * 3, games=3000, seed=18)
    with pytest.raises(SimlabError, match="different configuration"):
        run(other, tmp_path / "r", executor="serial", resume=True, progress=False)
    (tmp_path / "r" / MANIFEST).write_text("{not json")
    with pytest.raises(SimlabError, match="corrupt"):
        run(CONFIG, tmp_path / "r", executor="serial", resume=True, progress=False)
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "notes.txt").write_text("mine")
    with pytest.raises(SimlabError, match="not a simlab run directory"):
        run(CONFIG, tmp_path / "plain", executor="serial", overwrite=True, progress=False)


def test_bad_configs_are_refused_before_any_work(tmp_path):
    cases = [
        (RunConfig("karuba", 5, ("random",) * 5, 10), "2-4 players, not 5"),
        (RunConfig("karuba", 2, ("random", "sprinter"), 10), "unknown strategy 'sprinter'"),
        (RunConfig("karuba", 2, ("random",), 10), "1 seats given for 2 players"),
        (RunConfig("karuba", 2, ("random", "random"), 10, params={"tile_count": 3}), "unknown parameter 'tile_count'"),
        (RunConfig("karuba", 2, ("random", "random"), 10, params={"distance_rule": "far"}), "not one of"),
        (RunConfig("karuba", 2, ("random", "builder:speed=3"), 10), "has no parameter 'speed'"),
        (RunConfig("chess", 2, ("random", "random"), 10), "unknown game 'chess'"),
    ]
    for config, message in cases:
        with pytest.raises(SimlabError, match=message):
            run(config, tmp_path / "x", executor="serial", progress=False)
    assert not (tmp_path / "x").exists()


def test_streams_by_purpose_are_independent_and_purpose_zero_is_the_old_stream():
    from simlab.core.rng import N_STREAMS, seed_streams

    key = root_key(9)
    streams = np.zeros((N_STREAMS, 4), np.uint64)
    seed_streams(key, 77, streams)
    old = np.zeros(4, np.uint64)
    seed_stream(key, 77, old)
    assert (streams[0] == old).all()               # purpose 0: the stream of the single-stream engine
    firsts = {int(next_u64(streams[p])) for p in range(N_STREAMS)}
    assert len(firsts) == N_STREAMS                # every purpose draws its own numbers
    again = np.zeros((N_STREAMS, 4), np.uint64)
    seed_streams(key, 77, again)
    next_u64(again[3])
    assert (again[3] == streams[3]).all()          # a row depends only on (key, deal, purpose)
