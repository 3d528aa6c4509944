"""A run directory is trusted by content, never by file name (README "Big runs"), resume mixes no
configs or codes, and --overwrite deletes only a run's own files."""
import json
import shutil
import textwrap
import tracemalloc

import pandas as pd
import pytest

from simlab.core import fingerprint
from simlab.core.errors import SimlabError
from simlab.core.results import load
from simlab.core.rundir import MANIFEST, ChunkSet
from simlab.core.runner import RunConfig, run
from simlab.studies.experiment import Context, Experiment

CONFIG = RunConfig("karuba", 2, ("random", "random"), games=400, seed=12)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """A finished run of CONFIG in four parts, and one of another seed."""
    base = tmp_path_factory.mktemp("runs")
    run(CONFIG, base / "run", chunk_size=100, executor="serial", progress=False)
    run(RunConfig("karuba", 2, ("random", "random"), games=400, seed=13), base / "other", chunk_size=100,
        executor="serial", progress=False)
    return base


@pytest.fixture
def copy(runs, tmp_path):
    shutil.copytree(runs / "run", tmp_path / "run")
    return tmp_path / "run"


def manifest(run_dir):
    return json.loads((run_dir / MANIFEST).read_text())


def resume(run_dir, config=CONFIG, **kwargs):
    return run(config, run_dir, executor="serial", resume=True, progress=False, **kwargs)


@pytest.mark.parametrize("damage", ["truncated", "empty", "foreign", "deleted"])
def test_a_damaged_or_foreign_part_is_refused_by_readers_and_played_again_on_resume(runs, copy, damage):
    part = copy / "part-000002.parquet"
    if damage == "truncated":
        part.write_bytes(part.read_bytes()[:300])
    elif damage == "empty":
        part.write_bytes(b"")
    elif damage == "foreign":   # the same chunk of a run with another seed
        shutil.copy(runs / "other" / "part-000002.parquet", part)
    else:
        part.unlink()
    with pytest.raises(SimlabError, match="part-000002.parquet in .* (cannot be read|belongs to another run|is missing)"):
        load(copy)
    result = resume(copy)
    assert result.chunks_run == 1 and (result.replayed != []) == (damage != "deleted")
    pd.testing.assert_frame_equal(load(copy), load(runs / "run"))


def test_stray_copies_of_parts_are_never_read_nor_counted(runs, copy):
    for name in ("part-000001-backup.parquet", "part-000001 copy.parquet", "part-000004.parquet.bak"):
        shutil.copy(copy / "part-000001.parquet", copy / name)
    (copy / "part-000003.parquet").unlink()   # as if the run had stopped before its last chunk
    m = manifest(copy)
    m["done"] = [[0, 3]]
    (copy / MANIFEST).write_text(json.dumps(m))
    frame = load(copy)
    assert len(frame) == 300 * 2 and frame.game.nunique() == 300 and not frame.duplicated(["game", "seat"]).any()
    assert not frame.attrs["complete"]
    assert resume(copy).chunks_run == 1
    pd.testing.assert_frame_equal(load(copy), load(runs / "run"))
    assert (copy / "part-000001 copy.parquet").exists()


def test_a_kill_between_part_and_manifest_is_repaired_by_resume_without_playing(runs, copy):
    """The part was written, the manifest not: readers see the run incomplete until --resume repairs it."""
    m = manifest(copy)
    m["done"] = [[0, 3]]
    (copy / MANIFEST).write_text(json.dumps(m))
    assert not load(copy).attrs["complete"]
    result = resume(copy)
    assert result.chunks_run == 0 and manifest(copy)["done"] == [[0, 4]]
    assert load(copy).attrs["complete"]


def test_an_experiment_replays_a_stored_run_with_a_missing_part_instead_of_reusing_it(tmp_path):
    messages = []
    exp = Experiment("t", "t", "t", lambda ctx: None, game="karuba")
    ctx = Context(exp, 400, tmp_path / "out", tmp_path / "runs", seed=12, executor="serial", progress=False,
                  log=messages.append)
    cfg = ctx.config(2, ("random", "random"))
    ctx.run("p", cfg)
    (tmp_path / "runs" / "p" / "part-000000.parquet").unlink()
    ctx.run("p", cfg)
    assert "resuming" in messages[-1]
    assert load(tmp_path / "runs" / "p").attrs["complete"]


def strategy_source(body):
    return textwrap.dedent(f'''
        from simlab.core.strategy import strategy

        @strategy("karuba", "first_cell", "places on the first legal choice")
        def decide(state, cfg, seat, legal, n_legal, params, rng):
            return {body}
    ''')


def test_resume_refuses_an_edited_strategy_file_unless_the_change_is_accepted_and_recorded(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(strategy_source("0"))
    cfg = RunConfig("karuba", 2, ("first_cell", "random"), games=300, seed=2, strategy_files=(str(path),))
    run(cfg, tmp_path / "r", chunk_size=100, executor="serial", progress=False)
    (tmp_path / "r" / "part-000002.parquet").unlink()
    path.write_text(strategy_source("n_legal - 1"))
    with pytest.raises(SimlabError, match="played by other code: the strategy file mine.py changed"):
        resume(tmp_path / "r", cfg)
    assert not (tmp_path / "r" / "part-000002.parquet").exists()
    assert resume(tmp_path / "r", cfg, accept_code_change=True).chunks_run == 1
    batches = load(tmp_path / "r").attrs["simlab"]["batches"]
    assert "the strategy file mine.py changed" in batches[-1]["accepted_code_change"]
    assert len(manifest(tmp_path / "r")["code_ids"]) == 2   # the old parts stay, under the code they were played by


def test_resume_refuses_other_simlab_code_naming_it(copy, monkeypatch):
    (copy / "part-000003.parquet").unlink()
    old = manifest(copy)["code"]["game_code"]
    monkeypatch.setattr(fingerprint, "game_code", lambda game: "0123456789ab")
    with pytest.raises(SimlabError, match=f"simlab's karuba code changed \\({old} -> 0123456789ab\\)"):
        resume(copy)


def test_resume_of_a_run_with_a_search_seat_refuses_changed_search_code(tmp_path, monkeypatch):
    """A run whose seat is a search player plays what simlab/search decides: after the search code
    changes, --resume refuses it, naming the search, as for any other code that plays the run."""
    from simlab.core import runner

    config = RunConfig("karuba", 2, ("rollout:samples=2", "random"), games=4, seed=3)
    run(config, tmp_path / "r", chunk_size=2, executor="serial", progress=False)
    (tmp_path / "r" / "part-000001.parquet").unlink()
    monkeypatch.setattr(runner, "search_code", lambda: "0123456789ab")     # as a new process would see it
    monkeypatch.setattr(runner, "_PREPARED", {})
    with pytest.raises(SimlabError, match=r"the search players' code \(simlab/search\) changed"):
        resume(tmp_path / "r", config)


def test_resume_refuses_another_configuration_naming_the_difference(copy):
    with pytest.raises(SimlabError, match="the config differs: rotate false -> true; seed 12 -> 5"):
        resume(copy, RunConfig("karuba", 2, ("random", "random"), games=400, seed=5, rotate=True))


def test_overwrite_deletes_only_the_runs_own_files(copy):
    (copy / "notes.txt").write_text("mine")
    (copy / "part-000001 copy.parquet").write_bytes(b"a copy")
    (copy / ".part-000009.parquet.tmp").write_bytes(b"half")
    run(RunConfig("karuba", 2, ("random", "random"), games=100, seed=1), copy, executor="serial", overwrite=True,
        progress=False)
    assert sorted(p.name for p in copy.iterdir()) == ["_manifest.json", "notes.txt", "part-000000.parquet",
                                                      "part-000001 copy.parquet"]
    assert (copy / "notes.txt").read_text() == "mine"


def test_overwrite_refuses_a_folder_that_is_not_a_valid_run(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / MANIFEST).write_text('{"format": 2}')
    (tmp_path / "d" / "part-000000.parquet").write_text("mine")
    with pytest.raises(SimlabError, match="is damaged"):
        run(CONFIG, tmp_path / "d", executor="serial", overwrite=True, progress=False)
    assert sorted(p.name for p in (tmp_path / "d").iterdir()) == [MANIFEST, "part-000000.parquet"]


def test_a_trillion_game_run_plans_nothing_before_it_starts(tmp_path):
    """Chunks are planned lazily: reaching the first chunk of 10^12 games costs kilobytes, not gigabytes."""
    class Started(Exception):
        pass

    def stop(done, total):
        assert total == 10**12 // 20_000
        raise Started

    tracemalloc.start()
    with pytest.raises(Started):
        run(RunConfig("karuba", 2, ("random", "random"), games=10**12), tmp_path / "big", chunk_size=20_000,
            executor="serial", progress=False, on_start=stop)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 5_000_000
    assert not (tmp_path / "big").exists()   # nothing played: no directory left to block a retry


def test_done_chunks_are_kept_as_ranges():
    done = ChunkSet()
    for i in (0, 1, 2, 5, 4, 9):
        done.add(i)
    assert done.ranges == [[0, 3], [4, 6], [9, 10]] and len(done) == 6
    assert list(done.missing(11)) == [3, 6, 7, 8, 10]
    done.discard(4)
    assert done.ranges == [[0, 3], [5, 6], [9, 10]]
