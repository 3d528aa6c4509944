"""Bad input of every kind (command line, config files, strategy files, run directories, experiment
options) is refused the same way: exit code 2, one line on stderr naming the problem, no
traceback, and no file of the user's lost or changed.

Each case builds its files in a fresh folder, runs the command line in-process, and compares a
snapshot of the folder before and after (numba's cache under ``__pycache__`` aside): nothing
lost, changed or left behind.
A few cases run the real ``simlab`` process to check the real exit code and stderr.
"""
import hashlib
import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from simlab.core.rundir import MANIFEST
from simlab.core.runner import RunConfig, run

RUN = RunConfig("karuba", 2, ("random", "random"), games=200, seed=3)


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """A finished run (seed 3, two parts) and a run of another seed, to copy into each case."""
    base = tmp_path_factory.mktemp("stored")
    run(RUN, base / "run", chunk_size=100, executor="serial", progress=False)
    run(RunConfig("karuba", 2, ("random", "random"), games=200, seed=4), base / "other", chunk_size=100,
        executor="serial", progress=False)
    return base


def strategy_file(name: str, body: str = "return 0") -> str:
    return textwrap.dedent(f'''
        from simlab.core.strategy import strategy

        @strategy("karuba", "{name}", "a test strategy")
        def decide(state, cfg, seat, legal, n_legal, params, rng):
            {body}
    ''')


def copy_run(d: Path, stored: Path, name: str = "run") -> Path:
    shutil.copytree(stored / "run", d / name)
    return d / name


def edit_manifest(path: Path, change) -> None:
    manifest = json.loads(path.read_text())
    change(manifest)
    path.write_text(json.dumps(manifest))


# -- case setups: each writes its files into d and returns the command's arguments -------------

def toml(text: str):
    def setup(d, stored):
        (d / "study.toml").write_text(textwrap.dedent(text))
        return ["run", "--config", str(d / "study.toml"), "-o", str(d / "out"), "-q"]
    return setup


def strategies(body: str, name: str, stem: str = "mine"):
    def setup(d, stored):
        (d / f"{stem}.py").write_text(strategy_file(name, body))
        return ["run", "karuba", "-p", "2", "-s", f"{name},random", "-n", "50", "--strategies",
                str(d / f"{stem}.py"), "-o", str(d / "out"), "-q", "--executor", "serial"]
    return setup


def on_run(*args, resume=True):
    """A command on a copy of the finished run (prepared by ``prepare(run_dir)``)."""
    def wrap(prepare=lambda r: None):
        def setup(d, stored):
            r = copy_run(d, stored)
            prepare(r)
            cmd = [a.replace("{run}", str(r)) for a in args]
            if cmd[0] == "run":
                cmd = ["run", "karuba", "-p", "2", "-s", "random,random", "-n", "200", "--seed", "3", "-q",
                       "--executor", "serial"] + cmd[1:] + ["-o", str(r)] + (["--resume"] if resume else [])
            return cmd
        return setup
    return wrap


def truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def edited_strategy_resume(d, stored):
    path = d / "edited.py"
    path.write_text(strategy_file("edited_once"))
    cfg = RunConfig("karuba", 2, ("edited_once", "random"), games=200, seed=3, strategy_files=(str(path),))
    run(cfg, d / "r", chunk_size=100, executor="serial", progress=False)
    part_path = d / "r" / "part-000001.parquet"
    part_path.unlink()    # interrupted before its last chunk
    edit_manifest(d / "r" / MANIFEST, lambda m: m.update(done=[[0, 1]]))
    path.write_text(strategy_file("edited_once", "return n_legal - 1"))
    return ["run", "karuba", "-p", "2", "-s", "edited_once,random", "-n", "200", "--seed", "3", "--strategies",
            str(path), "-o", str(d / "r"), "--resume", "-q", "--executor", "serial"]


def linked_run(*args):
    """A command whose output folder is a symbolic link to a copy of the finished run."""
    def setup(d, stored):
        r = copy_run(d, stored, "real")
        (d / "link").symlink_to(r, target_is_directory=True)
        return [a.replace("{link}", str(d / "link")).replace("{run}", str(r)) for a in args]
    return setup


def user_run(change):
    """``simlab report`` on a run played with a user's strategy file, the file then changed by ``change``."""
    def setup(d, stored):
        path = d / "first0.py"
        path.write_text(strategy_file("first0"))
        cfg = RunConfig("karuba", 2, ("first0", "random"), games=100, seed=3, strategy_files=(str(path),))
        run(cfg, d / "r", executor="serial", progress=False)
        change(path)
        return ["report", str(d / "r"), "-o", str(d / "rep")]
    return setup


def plain(*args):
    def setup(d, stored):
        return [a.replace("{d}", str(d)) for a in args]
    return setup


def with_files(files: dict, *args):
    def setup(d, stored):
        for name, text in files.items():
            (d / name).parent.mkdir(parents=True, exist_ok=True)
            (d / name).write_text(text)
        return [a.replace("{d}", str(d)) for a in args]
    return setup


RUN_ARGS = ("run", "karuba", "-p", "2", "-s", "random,random", "-n", "50", "-o", "{d}/out", "-q")
TWO = ("run", "karuba", "-p", "2", "-s", "random,random", "-q", "-o", "{d}/out")

CASES = [
    # issue 33 item 6, found by an independent check of the command line
    ("run directory under a file", with_files({"afile": "x"}, "run", "karuba", "-n", "10", "-o", "{d}/afile/out",
                                              "-q", "--executor", "serial"),
     "cannot create the run directory"),
    ("report folder under a file", with_files({"afile": "x"}, "compare", "karuba", "-p", "2", "--seats", "builder",
                                              "--b-variant", "bonus-tiles", "--games", "20", "--out", "{d}/afile/rep"),
     "cannot create the folder --out"),
    ("a strategy parameter given twice", with_files({}, "run", "karuba", "-p", "2", "-s", "builder:help=1:help=7,racer",
                                                    "-n", "10", "-o", "{d}/out", "-q"),
     "parameter 'help' is given twice"),
    ("a fraction for a whole-number parameter", with_files({}, "run", "karuba", "-p", "2", "-s",
                                                           "racer:targets=2.5,builder", "-n", "10", "-o", "{d}/out",
                                                           "-q"),
     "targets=2.5 must be a whole number"),
    # -- the command line: numbers that mean nothing, contradictions, unknown names ------------
    ("unknown game", plain("run", "tic-tac-toe", "-o", "{d}/out"), "unknown game 'tic-tac-toe'"),
    ("unknown strategy", plain(*TWO[:5], "random,teleporter", "-q"), "unknown strategy 'teleporter'"),
    ("too many players", plain("run", "karuba", "-p", "5", "-o", "{d}/out"), "2-4 players, not 5"),
    ("zero players", plain("run", "karuba", "-p", "0", "-o", "{d}/out"), "2-4 players, not 0"),
    ("one player", plain("run", "karuba", "-p", "1", "-s", "random", "-o", "{d}/out"), "2-4 players, not 1"),
    ("zero games", plain(*TWO, "-n", "0"), "--games must be between 1 and"),
    ("negative games", plain(*TWO, "-n", "-5"), "--games must be between 1 and"),
    ("games not a number", plain(*TWO, "-n", "many"), "'many' is not a valid integer"),
    ("negative seed", plain(*TWO, "--seed", "-1"), "--seed must be at least 0"),
    ("zero chunk size", plain(*RUN_ARGS, "--chunk-size", "0"), "--chunk-size must be at least 1"),
    ("negative chunk size", plain(*RUN_ARGS, "--chunk-size", "-3"), "--chunk-size must be at least 1"),
    ("zero workers", plain(*RUN_ARGS, "--workers", "0"), "--workers must be at least 1"),
    ("zero dask workers", plain(*RUN_ARGS, "--dask-local", "0"), "--dask-local must be at least 1"),
    ("serial executor with a scheduler", plain(*RUN_ARGS, "--executor", "serial", "--scheduler", "tcp://h:1"),
     "--executor serial contradicts --scheduler"),
    ("processes executor with a local cluster", plain(*RUN_ARGS, "--executor", "processes", "--dask-local", "2"),
     "--executor processes contradicts --dask-local"),
    ("scheduler and local cluster", plain(*RUN_ARGS, "--scheduler", "tcp://h:1", "--dask-local", "2"),
     "--scheduler and --dask-local contradict"),
    ("workers and local cluster", plain(*RUN_ARGS, "--workers", "2", "--dask-local", "2"),
     "--workers and --dask-local contradict"),
    ("scheduler address without a port", plain(*RUN_ARGS, "--scheduler", "notanaddress"),
     "cannot reach the Dask scheduler at notanaddress: missing port number"),
    ("scheduler address of an unknown scheme", plain(*RUN_ARGS, "--scheduler", "foo://bar:1"),
     "cannot reach the Dask scheduler at foo://bar:1: unknown address scheme 'foo'"),
    # every command that plays games reads the same placement options, checked by the same code
    ("compare with a time budget that is not minutes", plain("compare", "jamaica", "-p", "2", "--seats", "balanced",
                                                             "--b-variant", "no-ghost", "--strong", "rollout",
                                                             "--strong-minutes", "soon", "-o", "{d}/rep"),
     "--option strong-minutes=soon: a number of minutes, or 'none'"),
    ("zero dask workers for a compare", plain("compare", "karuba", "--b-variant", "bonus-tiles", "--dask-local", "0",
                                              "-o", "{d}/cmp"), "--dask-local must be at least 1"),
    ("serial executor with a local cluster in an experiment",
     plain("experiment", "run", "overview", "--game", "karuba", "--executor", "serial", "--dask-local", "2",
           "-o", "{d}/rep"), "--executor serial contradicts --dask-local"),
    ("scheduler and local cluster in a sweep", plain("sweep", "karuba", "--param", "gold_supply=10,12", "--scheduler",
                                                     "tcp://h:1", "--dask-local", "2", "-o", "{d}/sw"),
     "--scheduler and --dask-local contradict"),
    ("workers and a local cluster in a tune", plain("tune", "karuba", "--param", "gold_supply=10,12", "--target",
                                                    "length in [1, 100]", "--workers", "2", "--dask-local", "2",
                                                    "-o", "{d}/tu"), "--workers and --dask-local contradict"),
    ("unreachable scheduler for robust", plain("robust", "overview", "--game", "karuba", "--scheduler", "notanaddress",
                                               "-o", "{d}/rb"), "cannot reach the Dask scheduler at notanaddress"),
    ("zero workers for tune-strategy", plain("tune-strategy", "karuba", "builder", "--workers", "0"),
     "--workers must be at least 1"),
    ("unknown executor for a ladder", plain("experiment", "run", "ladder", "--game", "karuba", "--executor", "cloud",
                                            "-o", "{d}/lad"), "'cloud' is not one of"),
    ("resume and overwrite", plain(*RUN_ARGS, "--resume", "--overwrite"), "--resume and --overwrite contradict"),
    ("accept code change without resume", plain(*RUN_ARGS, "--accept-code-change"), "applies to --resume only"),
    ("unknown option", plain("run", "karuba", "--frobnicate"), "No such option"),
    ("unknown parameter", plain(*RUN_ARGS, "--set", "gravity=3"), "unknown parameter 'gravity'"),
    ("parameter not a choice", plain(*RUN_ARGS, "--set", "distance_rule=far"), "'far' is not one of"),
    ("parameter not an integer", plain(*RUN_ARGS, "--set", "gold_supply=1.5"), "must be an integer, got '1.5'"),
    ("parameter out of range", plain(*RUN_ARGS, "--set", "gold_supply=999"), "must be between 0 and 64"),
    ("switch not true or false", plain(*RUN_ARGS, "--set", "bonus_tiles=maybe"), "must be true or false"),
    ("rising token stack", plain(*RUN_ARGS, "--set", "tokens_2p=3,5"), "tokens_2p=3,5 rises"),
    ("token stack of the wrong length", plain(*RUN_ARGS, "--set", "tokens_2p=5"), "expected 2 values, got 1"),
    ("beach not a label", plain(*RUN_ARGS, "--set", "beaches=15,0,0,0"), "labels 10, 20"),
    ("temple too close", plain(*RUN_ARGS, "--set", "beaches=10,0,0,0", "--set", "temples=20,0,0,0"), "too close"),
    ("assignment without =", plain(*RUN_ARGS, "--set", "gold_supply"), "--set expects name=value"),
    ("unknown variant", plain(*RUN_ARGS, "--variant", "moonlight"), "unknown variant 'moonlight'"),
    ("fewer seats than players", plain("run", "karuba", "-p", "3", "-s", "random,random", "-o", "{d}/out"),
     "2 seats given for 3 players"),
    ("unknown strategy parameter", plain(*TWO[:5], "random,builder:speed=3"), "has no parameter 'speed'"),
    ("strategy parameter not a number", plain(*TWO[:5], "random,builder:help=abc"), "expected name:param=number"),
    ("strategy parameter out of range", plain(*TWO[:5], "random,builder:help=1000"), "help=1000.0 is outside"),
    ("empty seat", plain(*TWO[:5], ",random"), "empty strategy name"),
    ("out is a file", with_files({"notes.txt": "mine"}, *RUN_ARGS[:-2], "{d}/notes.txt", "-q"),
     "notes.txt is a file, not a run directory"),
    ("out holds other files", with_files({"out/notes.txt": "mine"}, *RUN_ARGS), "already exists"),
    ("overwrite a folder that is not a run", with_files({"out/notes.txt": "mine"}, *RUN_ARGS, "--overwrite"),
     "is not a simlab run directory"),
    ("overwrite a run with a malformed manifest",
     with_files({"out/_manifest.json": "{not json", "out/notes.txt": "mine"}, *RUN_ARGS, "--overwrite"), "is corrupt"),
    ("trace with a negative seed", plain("trace", "karuba", "--seed", "-2"), "--seed must be at least 0"),
    ("trace drawing every -1 rounds", plain("trace", "karuba", "--every", "-1"), "--every must be at least 0"),
    ("bench for no time", plain("bench", "--seconds", "0"), "--seconds must be above 0"),
    ("bench compare with an unknown revision", plain("bench", "--compare", "nowhere-rev"),
     "git does not know the revision 'nowhere-rev'"),
    ("bench compare in no rounds", plain("bench", "--compare", "HEAD", "--rounds", "0"), "--rounds must be at least 1"),
    ("bench compare into a missing folder", plain("bench", "--compare", "HEAD", "--json", "{d}/no/such.json"),
     "its folder does not exist"),
    ("bench rounds without compare", plain("bench", "--rounds", "2"), "--rounds applies to --compare and --reference only"),
    ("bench compare and profile at once", plain("bench", "--compare", "HEAD", "--profile"),
     "--compare, --profile and --search are separate runs"),
    ("bench search and profile at once", plain("bench", "--search", "--profile"),
     "--compare, --profile and --search are separate runs"),
    ("bench reference of another game", plain("bench", "--reference", "-g", "jamaica"),
     "--reference is a run of its own (Karuba, every seat random)"),
    ("bench reference at a player count Karuba has not", plain("bench", "--reference", "-p", "5"),
     "Karuba is played by 2-4 players, not 5"),
    ("bench json without compare", plain("bench", "--json", "{d}/x.json"), "--json applies to --compare only"),
    ("bench annotate without profile", plain("bench", "--annotate", "play_on"), "--annotate applies to --profile only"),
    ("bench search at a player count the game has not", plain("bench", "--search", "-g", "karuba", "-p", "5"),
     "karuba is played by 2-4 players, not 5"),
    ("bench players the game has not", plain("bench", "--profile", "-g", "karuba", "-p", "7"),
     "karuba is played by 2-4 players, not 7"),
    ("bench-scale of no games", plain("bench-scale", "-n", "0"), "--games must be at least 1"),
    ("games: unknown game", plain("games", "chess"), "unknown game 'chess'"),
    # -- config files: the command line's rules, the file named ------------------------------
    ("config file missing", plain(*RUN_ARGS, "--config", "{d}/none.toml"), "config file not found"),
    ("config file malformed", toml("game = \n"), "study.toml: Invalid value"),
    ("config unknown key", toml('game = "karuba"\nspeed = 3\n'), "unknown key(s) speed"),
    ("config float seed", toml('game = "karuba"\nseed = 1.5\n'), "seed must be an integer, got 1.5"),
    ("config negative seed", toml('game = "karuba"\nseed = -1\n'), "seed must be at least 0, got -1"),
    ("config zero games", toml('game = "karuba"\ngames = 0\n'), "games must be between 1 and"),
    ("config games as text", toml('game = "karuba"\ngames = "many"\n'), "games must be an integer, got 'many'"),
    ("config boolean players", toml('game = "karuba"\nplayers = true\n'), "players must be an integer, got True"),
    ("config rotate as a number", toml('game = "karuba"\nrotate = 3\n'), "rotate must be true or false, got 3"),
    ("config seats as a number", toml('game = "karuba"\nseats = 5\n'), "seats must be a list of names"),
    ("config variants as text", toml('game = "karuba"\nvariants = "bonus-tiles"\n'), "variants must be a list"),
    ("config params not a table", toml('game = "karuba"\nparams = 3\n'), "params must be a table"),
    ("config float parameter", toml('game = "karuba"\n[params]\ngold_supply = 2.5\n'),
     "study.toml: parameter 'gold_supply' must be an integer, got 2.5"),
    ("config boolean for a number", toml('game = "karuba"\n[params]\ngold_supply = true\n'),
     "parameter 'gold_supply' must be an integer, got True"),
    ("config number for a switch", toml('game = "karuba"\n[params]\nbonus_tiles = 1\n'),
     "parameter 'bonus_tiles' must be true or false, got 1"),
    ("config number for a choice", toml('game = "karuba"\n[params]\ndistance_rule = 4\n'), "4 is not one of"),
    ("config float in a table", toml('game = "karuba"\n[params]\ntokens_2p = [5, 2.5]\n'),
     "parameter 'tokens_2p' entry must be an integer, got 2.5"),
    ("config game not a name", toml("game = 5\n"), "game must be a name in quotes"),
    ("config missing strategy file", toml('game = "karuba"\nstrategies = ["nowhere.py"]\n'),
     "strategy file not found"),
    # issue 44: a config file's value of the wrong TOML type is refused, not read as text would be
    ("config seats as one string", toml('game = "karuba"\nseats = "builder,racer"\n'),
     "seats must be a list of names in quotes"),
    ("config rotate as text", toml('game = "karuba"\nseats = ["builder", "racer"]\nrotate = "no"\n'),
     "rotate must be true or false, got 'no'"),
    ("config duplicate as text", toml('game = "karuba"\nduplicate = "yes"\n'), "duplicate must be true or false"),
    ("config players as text", toml('game = "karuba"\nplayers = "3"\n'), "players must be an integer, got '3'"),
    ("config seed as text", toml('game = "karuba"\nseed = "7"\n'), "seed must be an integer, got '7'"),
    ("config strategies as one string", toml('game = "karuba"\nstrategies = "mine.py"\n'),
     "strategies must be a list of file names"),
    ("config number parameter as text", toml('game = "karuba"\n[params]\ngold_supply = "4"\n'),
     "parameter 'gold_supply' must be an integer, got '4'"),
    ("config switch parameter as text", toml('game = "karuba"\n[params]\nbonus_tiles = "yes"\n'),
     "parameter 'bonus_tiles' must be true or false, got 'yes'"),
    ("config table parameter as text", toml('game = "karuba"\n[params]\ntokens_2p = "5,2"\n'),
     "parameter 'tokens_2p' must be a list of integers"),
    ("config table entry as text", toml('game = "karuba"\n[params]\ntokens_2p = ["5", "2"]\n'),
     "parameter 'tokens_2p' entry must be an integer, got '5'"),
    # -- strategy files: executed as code, any failure one line naming the file ------------------
    ("strategy file missing", plain(*RUN_ARGS, "--strategies", "{d}/nowhere.py"), "strategy file not found"),
    ("strategy file is a folder", with_files({"folder/x.txt": "x"}, *RUN_ARGS, "--strategies", "{d}/folder"),
     "strategy file not found"),
    ("strategy file syntax error", with_files({"syn.py": "def (:\n"}, *RUN_ARGS, "--strategies", "{d}/syn.py"),
     "syn.py failed to load: SyntaxError"),
    ("strategy file raising on import", with_files({"imp.py": "import no_such_module_here\n"}, *RUN_ARGS,
                                                   "--strategies", "{d}/imp.py"),
     "imp.py failed to load: ModuleNotFoundError"),
    ("strategy file calling sys.exit", with_files({"bye.py": "import sys\nsys.exit(0)\n"}, *RUN_ARGS,
                                                  "--strategies", "{d}/bye.py"), "bye.py failed to load: it called sys.exit(0)"),
    ("strategy with a numba typing error", strategies('x = "a" + 1\n            return 0', "typo_strat"),
     "numba cannot compile it: line 6 (x = \"a\" + 1)"),
    ("strategy returning an illegal index", strategies("return n_legal + 2", "overreach"),
     "strategy 'overreach' returned index"),
    ("strategy taking a built-in name", strategies("return 0", "builder"), "already has a strategy named 'builder'"),
    ("strategy with an unsafe name", strategies("return 0", "<b>bold</b>"), "strategy name or parameter '<b>bold</b>'"),
    ("two strategy files, one name", with_files({"a/twin.py": strategy_file("twin_name"),
                                                 "b/twin.py": strategy_file("twin_name", "return n_legal - 1")},
                                                *RUN_ARGS, "--strategies", "{d}/a/twin.py", "--strategies",
                                                "{d}/b/twin.py"), "already has a strategy named 'twin_name'"),
    ("strategy file registering nothing", with_files({"nothing.py": "x = 1\n"}, *RUN_ARGS, "--strategies",
                                                     "{d}/nothing.py"), "nothing.py registers no strategy"),
    # -- run directories: trusted by content, never by name ----------------------------------------
    ("resume with another seed", on_run("run", "--seed", "4")(), "the config differs: seed 3 -> 4"),
    ("resume after the strategy file changed", edited_strategy_resume, "the strategy file edited.py changed"),
    ("resume with a malformed manifest", on_run("run")(lambda r: (r / MANIFEST).write_text("{not json")),
     "is corrupt (not valid JSON)"),
    ("resume with a manifest lacking fields", on_run("run")(lambda r: edit_manifest(r / MANIFEST, lambda m: m.pop("code"))),
     "is damaged: 'code' is missing"),
    ("resume with damaged done ranges", on_run("run")(lambda r: edit_manifest(r / MANIFEST, lambda m: m.update(done=[[3, 1]]))),
     "'done' is not a list of chunk ranges"),
    ("resume a run of another format", on_run("run")(lambda r: edit_manifest(r / MANIFEST, lambda m: m.update(format=1))),
     "run format 1"),
    ("resume a folder that is not a run", with_files({"out/notes.txt": "mine"}, *RUN_ARGS, "--resume"),
     "is not a simlab run directory"),
    ("report on a folder that is not a run", with_files({"x/notes.txt": "mine"}, "report", "{d}/x"),
     "is not a simlab run directory"),
    ("report on a truncated part", on_run("report", "{run}")(lambda r: truncate(r / "part-000001.parquet")),
     "part-000001.parquet in"),
    ("report on an empty part", on_run("report", "{run}")(lambda r: (r / "part-000000.parquet").write_bytes(b"")),
     "part-000000.parquet in"),
    ("report on a deleted part", on_run("report", "{run}")(lambda r: (r / "part-000001.parquet").unlink()),
     "part-000001.parquet in"),
    ("report with a manifest lacking its config's seats",
     on_run("report", "{run}")(lambda r: edit_manifest(r / MANIFEST, lambda m: m["config"].pop("seats"))),
     "not a valid run config"),
    ("report out is a file", on_run("report", "{run}", "-o", "{run}/part-000000.parquet")(),
     "is a file, not a folder"),
    # issue 44: nothing acts through a symbolic link on what it points at
    ("overwrite through a link to a run", linked_run("run", "karuba", "-p", "2", "-s", "random,random", "-n", "50",
                                                     "-q", "--executor", "serial", "-o", "{link}", "--overwrite"),
     "is a symbolic link"),
    ("run out is a link", linked_run("run", "karuba", "-n", "50", "-q", "-o", "{link}", "--resume"),
     "is a symbolic link"),
    ("report out is a link", linked_run("report", "{run}", "-o", "{link}"), "is a symbolic link"),
    ("experiment out is a link", linked_run("experiment", "run", "allen-effect", "-n", "100", "-o", "{link}"),
     "is a symbolic link"),
    ("compare out is a link", linked_run("compare", "karuba", "--b-variant", "bonus-tiles", "-n", "100",
                                         "-o", "{link}"), "is a symbolic link"),
    ("playtest record is a link", linked_run("play", "karuba", "--record", "{link}"), "is a symbolic link"),
    # issue 44: a stored run is read with the strategy files it was played with, as they were
    ("report on a run whose strategy file is gone", user_run(lambda f: f.unlink()),
     "was played with the strategy file"),
    ("report on a run whose strategy file changed",
     user_run(lambda f: f.write_text(strategy_file("first0", "return n_legal - 1"))), "first0.py changed since"),
    # -- experiment options ------------------------------------------------------------------------
    ("unknown experiment", plain("experiment", "run", "nosuch"), "unknown experiment 'nosuch'"),
    ("experiment of no games", plain("experiment", "run", "allen-effect", "-n", "0", "-o", "{d}/rep"),
     "--games must be between 1 and"),
    ("experiment negative seed", plain("experiment", "run", "allen-effect", "--seed", "-1", "-o", "{d}/rep"),
     "--seed must be at least 0"),
    ("experiment zero workers", plain("experiment", "run", "allen-effect", "-w", "0", "-o", "{d}/rep"),
     "--workers must be at least 1"),
    ("experiment zero target width", plain("experiment", "run", "allen-effect", "--target-width", "0"),
     "--target-width must be above 0"),
    ("experiment target width above 1", plain("experiment", "run", "allen-effect", "--target-width", "2"),
     "--target-width must be above 0 and at most 1"),
    ("experiment zero max games", plain("experiment", "run", "allen-effect", "--max-games", "0"),
     "--max-games must be at least 1"),
    ("experiment out is a file", with_files({"rep": "mine"}, "experiment", "run", "allen-effect", "-o", "{d}/rep"),
     "--out"),
    ("experiment runs folder is a file", with_files({"runs": "mine"}, "experiment", "run", "allen-effect",
                                                    "-o", "{d}/rep", "--runs", "{d}/runs"), "--runs"),
    ("experiment about another game", plain("experiment", "run", "allen-effect", "--game", "karuba"),
     "is about loot-island, not karuba"),
    ("experiment needing a game", plain("experiment", "run", "overview", "-o", "{d}/rep"), "needs a game"),
    ("experiment under an unknown variant", plain("experiment", "run", "overview", "--game", "karuba", "--variant",
                                                  "nosuch", "-o", "{d}/rep"), "unknown variant 'nosuch' for karuba"),
    ("experiment with an unknown rule", plain("experiment", "run", "allen-effect", "--set", "nosuch=1", "-o", "{d}/rep"),
     "nosuch"),
    ("experiment with a rule out of range", plain("experiment", "run", "overview", "--game", "karuba", "--set",
                                                  "temple_step=-5", "-o", "{d}/rep"), "temple_step"),
    ("experiment of several games under a variant", plain("experiment", "run", "pairing", "--variant", "no-ghost",
                                                          "-o", "{d}/rep"), "plays several games"),
    ("robust check under a variant", plain("experiment", "run", "allen-effect", "--robust", "10", "--variant",
                                           "no-allen", "-o", "{d}/rep"), "leave out --variant"),
    # -- tuned strategy parameter sets (simlab tune-strategy, BASE@SET seats) -------------------------
    ("unknown tuned set", plain(*TWO[:5], "random,random@nope", "-n", "10"), "unknown tuned set 'random@nope'"),
    ("tuned set of an unknown strategy", plain(*TWO[:5], "random,bold@tuned", "-n", "10"),
     "unknown strategy 'bold'"),
    ("tune-strategy unknown parameter", plain("tune-strategy", "loot-island", "cautious", "--param", "nerve"),
     "has no parameter 'nerve'"),
    ("tune-strategy of a strategy without parameters", plain("tune-strategy", "karuba", "random"),
     "has no parameters to tune"),
    ("tune-strategy of a tuned set", plain("tune-strategy", "loot-island", "cautious@tuned"),
     "tune the base strategy, not a tuned set: 'cautious'"),
    ("tune-strategy budget below one generation", plain("tune-strategy", "loot-island", "cautious", "--budget", "2"),
     "--budget must be at least 3"),
    ("tune-strategy zero games per evaluation", plain("tune-strategy", "loot-island", "cautious", "-g", "0"),
     "--games-per-eval must be at least 1"),
    ("tune-strategy unknown opponent", plain("tune-strategy", "loot-island", "cautious", "--opponents",
                                             "hunter,teleporter"), "unknown strategy 'teleporter'"),
    ("tune-strategy players out of range", plain("tune-strategy", "karuba", "builder", "-p", "5"),
     "--players must be between 2 and 4"),
    ("tune-strategy set name with a space", plain("tune-strategy", "loot-island", "cautious", "--name", "my set"),
     "--name 'my set': use letters"),
    # -- the user's own question file ---------------------------------------------------------------
    ("question file missing", plain("experiment", "run", "{d}/nosuch.py"), "no question file"),
    ("question file is a folder", with_files({"q.py/x": "1"}, "experiment", "run", "{d}/q.py"), "(it is a folder)"),
    ("question file with a syntax error", with_files({"q.py": "x = 1\ndef analyse(ctx:\n"}, "experiment", "run",
                                                     "{d}/q.py"), "q.py, line 2: syntax error"),
    ("question file failing as it loads", with_files({"q.py": "x = 1\nimport no_such_module_here\n"}, "experiment",
                                                     "run", "{d}/q.py"), "q.py, line 2: ModuleNotFoundError"),
    ("question file without EXPERIMENT", with_files({"q.py": "x = 1\n"}, "experiment", "run", "{d}/q.py"),
     "defines no EXPERIMENT"),
    ("question file whose EXPERIMENT is not one", with_files({"q": "EXPERIMENT = 3\n"}, "experiment", "run", "{d}/q"),
     "EXPERIMENT is a int, not an Experiment"),
    # issue 34: the playtest seat
    ("play: an unknown game", plain("play", "tic-tac-toe"), "unknown game 'tic-tac-toe'"),
    ("play: a game with no table", plain("play", "pig"), "pig declares no step model and table"),
    ("play: a seat outside the table", plain("play", "karuba", "--seat", "3"), "--seat 3: the seats are 1..2"),
    ("play: too many players", plain("play", "karuba", "-p", "5"), "2-4 players, not 5"),
    ("play: the other seats miscounted", plain("play", "karuba", "-p", "3", "--seats", "builder"),
     "--seats names 1 strategies for the 2 other seats"),
    ("play: an unknown bot", plain("play", "karuba", "--seats", "teleporter"), "unknown strategy 'teleporter'"),
    ("play: people named twice", plain("play", "karuba", "--seat", "1", "--seats", "human,builder"),
     "name the people's seats once"),
    ("play: no saved game", plain("play", "--load", "{d}/nothere.json"), "no saved game at"),
    ("play: a saved game that is not one", with_files({"g.json": "{}"}, "play", "--load", "{d}/g.json"),
     "is not a simlab playtest"),
    ("play: --load with a game", with_files({"g.json": "{}"}, "play", "karuba", "--load", "{d}/g.json"),
     "--load continues the saved game as it was set up"),
    ("play: a record folder with files", with_files({"rec/x.txt": "mine"}, "play", "karuba", "--record", "{d}/rec"),
     "already holds files"),
    ("play: --port without --web", plain("play", "karuba", "--port", "8000"), "--port and --no-browser apply to --web"),
    ("trace: a record that is not there", plain("trace", "--record", "{d}/nothere"), "no saved game at"),
    ("trace: --record with rules", with_files({"g.json": "{}"}, "trace", "--record", "{d}/g.json", "--seed", "3"),
     "--record replays the recorded game as it was played"),
]


def snapshot(folder: Path) -> dict[str, str]:
    """Every file's content hash, numba's cache (``__pycache__``, rewritten on each compile) aside."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}


@pytest.mark.parametrize("setup, message", [pytest.param(s, m, id=i) for i, s, m in CASES])
def test_bad_input_is_one_line_exit_2_and_no_file_lost_or_changed(cli_run, stored, tmp_path, setup, message):
    args = setup(tmp_path, stored)
    before = snapshot(tmp_path)
    code, out, err = cli_run(*args)
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], err
    assert "Traceback" not in err and "Traceback" not in out
    assert snapshot(tmp_path) == before, "a file was lost, changed or left behind"


def test_at_least_sixty_kinds_of_bad_input_are_covered():
    assert len(CASES) >= 60 and len({c[0] for c in CASES}) == len(CASES)


@pytest.mark.parametrize("args, files, message", [
    (["run", "karuba", "-n", "0"], {}, "error: --games must be between 1 and"),
    (["run", "--config", "study.toml"], {"study.toml": 'game = "karuba"\nseed = 1.5\n'},
     "error: config file study.toml: seed must be an integer, got 1.5"),
    (["report", "r"], {"r/_manifest.json": "[1, 2"}, "is corrupt (not valid JSON)"),
    (["run", "karuba", "--strategies", "bye.py"], {"bye.py": "raise SystemExit(3)\n"}, "it called sys.exit(3)"),
    (["run", "karuba", "-p", "2", "-s", "overreach2,random", "-n", "400", "--chunk-size", "200", "-w", "2",
      "--strategies", "over.py"], {"over.py": strategy_file("overreach2", "return -1")},
     "strategy 'overreach2' returned index -1 for a decision with"),
])
def test_the_real_command_exits_2_with_one_line(tmp_path, args, files, message):
    """The installed entry point, in its own process (a worker pool runs the illegal-index case)."""
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    before = snapshot(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "simlab", *args, "-o", "out", "-q"] if args[0] == "run" else
                          [sys.executable, "-m", "simlab", *args], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 2, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and message in proc.stderr, proc.stderr
    assert snapshot(tmp_path) == before


def test_illegal_index_names_strategy_game_seat_and_choices(tmp_path):
    """The message pins the decision down: replaying that game with that seat's strategy repeats it."""
    from simlab.core.errors import SimlabError
    from simlab.core.strategy import load_strategy_file

    path = tmp_path / "late.py"
    path.write_text(strategy_file("late_overreach", "return n_legal if seat == 0 else 0"))
    load_strategy_file(path)
    cfg = RunConfig("karuba", 2, ("random", "late_overreach"), games=30, seed=5, rotate=True,
                    strategy_files=(str(path),))
    with pytest.raises(SimlabError) as info:   # rotated: the second strategy first sits at seat 0 in game 1
        run(cfg, tmp_path / "r", executor="serial", progress=False, chunk_size=30)
    assert str(info.value).startswith("strategy 'late_overreach' returned index ")
    assert str(info.value).endswith("legal choices (indices 0..{}): game 1, seat 0, seed 5".format(
        int(str(info.value).split("returned index ")[1].split()[0]) - 1))
    assert not list((tmp_path / "r").glob("part-*.parquet"))


def test_resume_on_a_folder_with_no_run_says_it_starts_one_there(cli_run, tmp_path):
    """``--resume`` completes a run or starts it (as its help says); a folder with no run in it, a
    mistyped name perhaps, is said in one line before it starts, and a real resume says nothing."""
    args = ("run", "karuba", "-p", "2", "-s", "random,random", "-n", "20", "-o", str(tmp_path / "typo"), "-q",
            "--resume", "--executor", "serial")
    code, out, err = cli_run(*args)
    assert code == 0 and err.strip() == f"note: there is no run in {tmp_path / 'typo'} to complete: --resume starts it there"
    code, out, err = cli_run(*args)
    assert code == 0 and "note:" not in err
