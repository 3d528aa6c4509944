"""Scale-out: identical rows whichever executor runs the chunks; real interruptions lose nothing."""
import signal
import subprocess
import sys
import time

import pandas as pd

from simlab.core.results import load
from simlab.core.runner import RunConfig, run

CONFIG = RunConfig("karuba", 4, ("random",) * 4, games=4000, seed=23, rotate=True)


def test_serial_processes_and_dask_cluster_give_identical_frames(tmp_path):
    run(CONFIG, tmp_path / "serial", workers=1, chunk_size=4000, executor="serial", progress=False)
    run(CONFIG, tmp_path / "procs", workers=2, chunk_size=900, executor="processes", progress=False)
    run(CONFIG, tmp_path / "dask", workers=2, chunk_size=1300, executor="dask", progress=False)
    serial = load(tmp_path / "serial")
    pd.testing.assert_frame_equal(serial, load(tmp_path / "procs"))
    pd.testing.assert_frame_equal(serial, load(tmp_path / "dask"))


def test_interrupted_cli_run_keeps_finished_chunks_and_resume_completes_it(tmp_path):
    out = tmp_path / "run"
    args = [sys.executable, "-m", "simlab", "run", "karuba", "-p", "3", "-s", "random,random,random",
            "-n", "400000", "--seed", "5", "--chunk-size", "10000", "--workers", "1", "-q", "--out", str(out)]
    # A Ctrl-C at a terminal: restore SIGINT's default in the child, since CI may start us as a
    # background job, whose children inherit an ignored SIGINT.
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.time() + 120
    while time.time() < deadline and len(list(out.glob("part-*.parquet"))) < 2:
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "--resume" in err and "Traceback" not in err
    saved = len(list(out.glob("part-*.parquet")))
    assert 2 <= saved < 40, "finished chunks were kept, the run was really cut short"
    cfg = RunConfig("karuba", 3, ("random",) * 3, games=400000, seed=5)
    result = run(cfg, out, workers=2, resume=True, progress=False)
    assert result.chunks_run == 40 - saved
    frame = load(out, columns=["game", "seat", "score"])
    assert len(frame) == 1_200_000 and frame.game.nunique() == 400000
    check = run(RunConfig("karuba", 3, ("random",) * 3, games=20000, seed=5), tmp_path / "ref",
                executor="serial", progress=False)
    ref = load(check.run_dir, columns=["game", "seat", "score"])
    pd.testing.assert_frame_equal(frame.iloc[:60000].reset_index(drop=True), ref)
