"""The ``simlab`` command line: games, run, trace, bench (experiments and reports plug in here)."""
from __future__ import annotations

import signal
import sys
import threading
from pathlib import Path

import click

from simlab.cli.calibrate import calibrate
from simlab.cli.studies import (compare, experiment, report, robust, sweep, tune, tune_strategy, verdict_phrase,
                                where_options)
from simlab.core.errors import Interrupted, SimlabError, check_folder
from simlab.core.game import available_games, get_game
from simlab.core.params import boolean, integer, load_toml, parse_assignments, text_list
from simlab.core.strategy import load_strategy_file, strategies_for
from simlab.core.tuned_sets import tuned_sets
from simlab.signals import HANDLED, exit_now

SEATS_HELP = "comma-separated strategy per seat, each name[:param=value...], e.g. builder:help=2,racer"
# A config file's keys and the TOML type each must have (a file says what it means: `seats =
# "builder,racer"` or `rotate = "no"` is refused, not read the way the command line reads text)
CONFIG_KEYS = {"game": (str, "a name in quotes"), "players": (int, "an integer"),
               "seats": (list, 'a list of names in quotes such as ["builder", "racer"]'),
               "games": (int, "an integer"), "seed": (int, "an integer"), "params": (dict, "a table ([params])"),
               "rotate": (bool, "true or false"), "duplicate": (bool, "true or false"),
               "strategies": (list, 'a list of file names in quotes such as ["mine.py"]'),
               "variants": (list, 'a list of names in quotes such as ["bonus-tiles"]')}


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="simlab")
def cli():
    """Monte Carlo balance analysis for tabletop games."""


@cli.command()
@click.argument("game", required=False)
@click.option("--strategies", "strategy_files", multiple=True, type=click.Path(), help="extra strategy file(s)")
def games(game, strategy_files):
    """List the games, or one game's player counts, variants, strategies and parameters."""
    for path in strategy_files:
        load_strategy_file(path)
    if not game:
        for name in available_games():
            spec = get_game(name)
            click.echo(f"{name:<16}{spec.title:<18}{spec.min_players}-{spec.max_players} players   "
                       f"variants: {', '.join(spec.variants) or '-'}")
        click.echo("\n`simlab games NAME` lists a game's strategies and parameters.")
        return
    spec = get_game(game)
    click.echo(f"{spec.title} ({spec.name}), {spec.min_players}-{spec.max_players} players")
    click.echo(spec.summary)
    if spec.rules_file:
        click.echo(f"Rules and component sources: {spec.rules_file}")
    click.echo("\nVariants (--variant NAME):")
    for name, sets in spec.variants.items():
        click.echo(f"  {name:<20}" + ", ".join(f"{k}={v}" for k, v in sets.items()))
    click.echo("\nStrategies (--seats NAME[:param=value...]):")
    for name, st in sorted(strategies_for(spec.name).items()):
        click.echo(f"  {name:<14}{st.description}")
        for p in st.params:
            tuned = "" if p.search is None else f", tuned in {p.search[0]:g}..{p.search[1]:g}"
            click.echo(f"      {p.name}={p.default:g}  {p.meaning} [{p.low:g}..{p.high:g}{tuned}"
                       + (", whole" if p.integer else "") + "]")
    sets = tuned_sets(spec.name)
    if sets:
        click.echo("\nTuned parameter sets (--seats BASE@SET; `simlab tune-strategy` makes them):")
    for key, record in sorted(sets.items()):
        click.echo(f"  {key:<20}" + ", ".join(f"{k}={v:g}" for k, v in record["params"].items()))
        validation = record.get("provenance", {}).get("validation")
        if validation:
            click.echo(f"      {verdict_phrase(validation)}")
        if record.get("warning"):
            click.echo(f"      WARNING: {record['warning']}")
    if spec.outcomes:
        click.echo("\nKey outcomes (every report tables them; `simlab tune --target \"KEY in [LO, HI]\"`):")
        for o in spec.outcomes:
            click.echo(f"  {o.key:<20}{o.name} (column {o.column} {o.test})")
    if spec.assumed_data:
        click.echo(f"\nCOMPONENT DATA ASSUMED: {spec.assumed_data}.")
    click.echo("\nParameters (--set name=value, or [params] in a --config TOML file):")
    for p in spec.params.params:
        click.echo(f"  {p.name} = {p.describe_value(p.default)}   [{p.status.upper()}]")
        click.echo(f"      {p.meaning}" + (f"  (source: {p.source})" if p.source else ""))


def _config_from(game, players, seats, games_n, seed, sets, variants, config_file, rotate, strategy_files,
                 duplicate=False):
    """Merge a TOML config file (if any) with command-line options; the command line wins.

    Every value is checked by the same rules from either source; a file's errors name the file.
    """
    from simlab.core.runner import MAX_GAMES, RunConfig

    file = load_toml(config_file) if config_file else {}
    unknown = set(file) - set(CONFIG_KEYS)
    if unknown:
        raise SimlabError(f"config file {config_file}: unknown key(s) {', '.join(sorted(unknown))}; "
                          f"known: {', '.join(CONFIG_KEYS)}")
    for key, value in file.items():
        kind, words = CONFIG_KEYS[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise SimlabError(f"config file {config_file}: {key} must be {words}, got {value!r}")

    def option(cli_value, key, check, *limits):
        """The command line's value, else the file's, checked (None when neither gives one)."""
        if cli_value is not None:
            return check(cli_value, f"--{key}", *limits)
        if key not in file:
            return None
        try:
            return check(file[key], key, *limits)
        except SimlabError as exc:
            raise SimlabError(f"config file {config_file}: {exc}") from None

    def name(raw, what):
        if not isinstance(raw, str) or not raw.strip():
            raise SimlabError(f"{what} must be a name in quotes, got {raw!r}")
        return raw

    def comma_list(raw, what):
        return [s.strip() for s in raw.split(",")] if isinstance(raw, str) else text_list(raw, what)

    game = option(game, "game", name)
    if not game:
        raise SimlabError("name a game (see `simlab games`)")
    spec = get_game(game)
    files = tuple(option(None, "strategies", text_list) or ()) + tuple(strategy_files)
    for path in files:
        load_strategy_file(path)
    params = spec.variant_params(list(option(None, "variants", text_list) or ()) + list(variants))
    file_params = file.get("params", {})
    try:
        spec.params.resolve(file_params, typed=True)
    except SimlabError as exc:
        raise SimlabError(f"config file {config_file}: {exc}") from None
    params.update(file_params)
    params.update(parse_assignments(sets))
    params = spec.params.changed(spec.params.resolve(params))
    seat_list = option(seats, "seats", comma_list)
    players = option(players, "players", integer)
    if players is None:
        players = len(seat_list) if seat_list else spec.max_players
    if not seat_list:
        seat_list = spec.default_mix(players)
    games_n = option(games_n, "games", integer, 1, MAX_GAMES)
    seed = option(seed, "seed", integer, 0)
    rotate = option(rotate or None, "rotate", boolean)
    duplicate = bool(option(duplicate or None, "duplicate", boolean))
    if duplicate and games_n is None:   # the default run length, rounded up to whole deals
        games_n = -(-10_000 // players) * players
    return RunConfig(game=spec.name, players=players, seats=tuple(seat_list),
                     games=10_000 if games_n is None else games_n, seed=1 if seed is None else seed,
                     params=params, rotate=bool(rotate), strategy_files=tuple(str(Path(f).resolve()) for f in files),
                     duplicate=duplicate)


def run_options(fn):
    for opt in reversed([
        click.option("--players", "-p", type=int, help="number of players (default: one per seat)"),
        click.option("--seats", "-s", help=SEATS_HELP),
        click.option("--seed", type=int, help="root seed (default 1)"),
        click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="override a rule parameter"),
        click.option("--variant", "variants", multiple=True, help="switch on a named variant"),
        click.option("--config", "config_file", type=click.Path(), help="TOML run config"),
        click.option("--strategies", "strategy_files", multiple=True, type=click.Path(),
                     help="Python file registering extra strategies"),
    ]):
        fn = opt(fn)
    return fn


@cli.command()
@click.argument("game", required=False)
@run_options
@click.option("--games", "-n", "games_n", type=int, help="number of games (default 10,000)")
@click.option("--rotate", is_flag=True, help="rotate strategies through the seats game by game")
@click.option("--duplicate", is_flag=True,
              help="duplicate play: every deal (all chance) played in all seat rotations, games a multiple of players")
@click.option("--out", "-o", type=click.Path(), help="run directory of Parquet parts (default runs/GAME-Np-seedS)")
@where_options()
@click.option("--chunk-size", type=int, help="games per chunk (default: about 4 chunks per worker, <= 20,000)")
@click.option("--resume", is_flag=True, help="complete an interrupted run in --out (or start it there)")
@click.option("--overwrite", is_flag=True, help="replace an existing run in --out (its own files only)")
@click.option("--accept-code-change", is_flag=True,
              help="with --resume: continue a run played by other code (recorded in its provenance)")
@click.option("--quiet", "-q", is_flag=True, help="no progress bar")
def run(game, players, seats, seed, sets, variants, config_file, strategy_files, games_n, rotate, duplicate, out,
        where, chunk_size, resume, overwrite, accept_code_change, quiet):
    """Play many games and write one row per game and seat to a Parquet run directory."""
    from simlab.core.runner import prepared
    from simlab.core.runner import run as run_games

    config = _config_from(game, players, seats, games_n, seed, sets, variants, config_file, rotate, strategy_files,
                          duplicate)
    prepared(config.to_dict())  # refuse bad input before printing anything
    if chunk_size is not None:
        integer(chunk_size, "--chunk-size", 1)
    if resume and overwrite:
        raise SimlabError("--resume and --overwrite contradict each other: choose one")
    if accept_code_change and not resume:
        raise SimlabError("--accept-code-change applies to --resume only")
    out = out or f"runs/{config.game}-{config.players}p-seed{config.seed}"
    check_folder(out, "run directory")
    if resume and not (Path(out).is_dir() and any(Path(out).iterdir())):   # (a mistyped folder: a second run unnoticed)
        click.echo(f"note: there is no run in {out} to complete: --resume starts it there", err=True)

    def announce(done: int, total: int) -> None:
        if not quiet:
            click.echo(f"{config.game}: {config.games:,} games, {config.players} players, seats "
                       f"{', '.join(config.seats)}" + (" in duplicate" if config.duplicate else "") + (f", params {config.params}" if config.params else "")
                       + f", seed {config.seed} -> {out}" + (f" (resuming: {done:,} of {total:,} chunks done)"
                                                            if done else ""), err=True)

    try:
        result = run_games(config, out, workers=where.workers, chunk_size=chunk_size, executor=where.executor,
                           scheduler=where.scheduler, resume=resume, overwrite=overwrite, progress=not quiet,
                           accept_code_change=accept_code_change, on_start=announce)
    except Interrupted as exc:
        click.echo(("" if quiet else "\n") + f"interrupted: finished chunks are saved in {out}; complete the run "
                   f"with `simlab run ... --out {out} --resume`", err=True)
        sys.exit(128 + exc.signum)
    for note in result.replayed:
        click.echo(f"played again: {note}", err=True)
    click.echo(result.summary.format(config.players))
    click.echo(f"\nRows: {result.run_dir} (read with simlab.load('{result.run_dir}'))")


@cli.command()
@click.argument("game", required=False)
@run_options
@click.option("--every", type=int, default=1, show_default=True, help="draw the board every N rounds (0: at the end)")
@click.option("--record", "record", type=click.Path(),
              help="replay a playtest instead (its record folder, or a game saved with `save`)")
def trace(game, players, seats, seed, sets, variants, config_file, strategy_files, every, record):
    """Play one game and narrate it turn by turn in plain words (or replay a playtest: --record)."""
    from simlab.core.runner import Prepared

    integer(every, "--every", 0)
    if record is not None:
        from simlab.playtest.session import load

        if game or players or seats or seed is not None or sets or variants or config_file or strategy_files:
            raise SimlabError("--record replays the recorded game as it was played: give no game, seats or rules")
        session = load(record)
        click.echo(f"{session.spec.title}, {session.n} players, seed {session.config.seed}, a playtest"
                   + ("" if session.over else " (unfinished)") + "; seats: "
                   + ", ".join(f"{i + 1} {label}" for i, label in enumerate(session.labels)))
        click.echo(session.trace(every))
        return
    config = _config_from(game, players, seats, 1, seed, sets, variants, config_file, False, strategy_files)
    prep = Prepared(config)
    out, events = prep.play(0, 1, log_capacity=20_000)
    assumed = {k: (v if len(v) <= 24 else "(assumed table)") for k, v in prep.provenance()["assumptions_in_force"].items()}
    click.echo(f"{prep.spec.title}, {config.players} players, seed {config.seed}; seats: "
               + ", ".join(f"{i + 1} {label}" for i, label in enumerate(prep.labels)))
    if prep.spec.rules_file:
        click.echo(f"Rules as played, with every open reading: {prep.spec.rules_file}")
    if assumed:
        click.echo("Assumed rule readings in force: " + "; ".join(f"{k}={v}" for k, v in assumed.items()))
    click.echo(prep.spec.narrate(events, config.players, prep.values, prep.labels, every=every))


@cli.command()
@click.argument("game", required=False)
@click.option("--players", "-p", type=int, help="number of players (default: the game's fewest)")
@click.option("--seat", "people", type=int, multiple=True,
              help="your seat, 1-based (default 1); repeat it for several people at one keyboard (hot seat)")
@click.option("--seats", "-s", help="the other seats' strategies in seat order, comma-separated "
                                    "(default: the game's heuristic mix)")
@click.option("--seed", type=int, help="root seed: the deal (default: a new one each game)")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="override a rule parameter")
@click.option("--variant", "variants", multiple=True, help="switch on a named variant")
@click.option("--config", "config_file", type=click.Path(), help="TOML run config (rules and seats)")
@click.option("--strategies", "strategy_files", multiple=True, type=click.Path(),
              help="Python file registering extra strategies")
@click.option("--load", "saved", type=click.Path(), help="continue a saved game (a file from `save`, or a record)")
@click.option("--record", type=click.Path(), help="folder for the game's record (default playtests/GAME-TIME)")
@click.option("--web", is_flag=True, help="play in the browser: a page on 127.0.0.1 with a one-time token")
@click.option("--port", type=int, default=0, help="--web: the port (default: a free one)")
@click.option("--no-browser", is_flag=True, help="--web: print the address, do not open a browser")
def play(game, players, people, seats, seed, sets, variants, config_file, strategy_files, saved, record, web, port,
         no_browser):
    """Take a seat and play against the bots: in the terminal, or in the browser with --web."""
    from simlab.playtest.record import check_record, default_record
    from simlab.playtest.session import load

    if saved is not None:
        if game or players or people or seats or seed is not None or sets or variants or config_file or strategy_files:
            raise SimlabError("--load continues the saved game as it was set up: give no game, seats or rules")
        session = load(saved)
    else:
        session = _playtest(game, players, people, seats, seed, sets, variants, config_file, strategy_files)
    folder = Path(record) if record else default_record(session.spec.name)
    check_record(folder)
    if not web and (port or no_browser):
        raise SimlabError("--port and --no-browser apply to --web only")
    if web:
        from simlab.playtest.web import serve

        serve(session, folder, integer(port, "--port", 0, 65535), open_browser=not no_browser)
    else:
        from simlab.playtest.terminal import play as play_terminal

        play_terminal(session, folder)


def _playtest(game, players, people, seats, seed, sets, variants, config_file, strategy_files):
    """The session ``simlab play`` asks for: the people's seats, the bots in the others."""
    import secrets

    from simlab.core.strategy import HUMAN
    from simlab.playtest.session import Session

    spec = get_game(game) if game else None
    others = [s.strip() for s in seats.split(",")] if seats else None
    named = [i for i, s in enumerate(others or []) if s == HUMAN]
    if named and people:
        raise SimlabError("name the people's seats once: with --seat, or as 'human' in --seats")
    if named:
        players = players or len(others)
        seat_list = others
    else:
        people = sorted(set(people or (1,)))
        if players is None:
            players = len(others) + len(people) if others else max(2, spec.min_players) if spec else 2
        players = integer(players, "--players", 1)
        for k in people:
            if not 1 <= k <= players:
                raise SimlabError(f"--seat {k}: the seats are 1..{players}")
        if others is not None and len(others) != players - len(people):
            raise SimlabError(f"--seats names {len(others)} strategies for the {players - len(people)} other seats "
                              f"of a {players}-player game")
        bots = iter(others or (spec.default_mix(players) if spec else ()))
        seat_list = [HUMAN if k + 1 in people else next(bots, "random") for k in range(players)]
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    config = _config_from(game, players, ",".join(seat_list), 1, seed, sets, variants, config_file, False,
                          strategy_files)
    return Session(config)


@cli.command()
@click.option("--game", "-g", "games_", multiple=True, help="benchmark only these games (default: all)")
@click.option("--players", "-p", type=int, help="only this player count (default: the game's bench counts)")
@click.option("--mix", type=click.Choice(["random", "heuristic"]), help="only this strategy mix (default: both)")
@click.option("--seconds", type=float, default=3.0, show_default=True, help="time per measurement")
@click.option("--no-jit-games", type=int, default=20, show_default=True, help="games played with the JIT disabled")
@click.option("--compare", "rev", metavar="REV", help="benchmark the working tree against git revision REV")
@click.option("--rounds", type=int, help="--compare, --reference: measurements of each side  [default: 3]")
@click.option("--json", "json_path", type=click.Path(dir_okay=False), help="--compare: also write the numbers here")
@click.option("--profile", is_flag=True, help="where the time goes in steady-state play (perf)")
@click.option("--annotate", metavar="NAME",
              help="--profile: also the hottest instructions of the function whose name contains NAME")
@click.option("--search", "search_", is_flag=True,
              help="the search players: play-outs per second and rollout's time per decision (default 2 players); "
                   "with --compare REV, against that commit")
@click.option("--reference", is_flag=True,
              help="Karuba's random play against a lean reference implementation on the same games, in one process")
def bench(games_, players, mix, seconds, no_jit_games, rev, rounds, json_path, profile, annotate, search_, reference):
    """Games per second per core for each game and strategy mix, JIT speed-up, compile times;
    --compare REV: the working tree against another commit; --profile: where the time goes;
    --search: how fast the search players look ahead; --reference: Karuba's engine against lean code."""
    from simlab.dev.bench import run_bench, run_compare, run_reference, run_search_bench, run_search_compare

    if not seconds > 0:
        raise SimlabError(f"--seconds must be above 0, got {seconds:g}")
    integer(no_jit_games, "--no-jit-games", 1)
    if profile and (rev is not None or search_):
        raise SimlabError("--compare, --profile and --search are separate runs: give one of them "
                          "(or --compare REV --search)")
    if annotate is not None and not profile:
        raise SimlabError("--annotate applies to --profile only")
    if reference and (rev is not None or search_ or profile or games_ or mix or json_path):
        raise SimlabError("--reference is a run of its own (Karuba, every seat random): it takes --players, "
                          "--seconds and --rounds only")
    if json_path and rev is None:
        raise SimlabError("--json applies to --compare only")
    if rounds is not None and rev is None and not reference:
        raise SimlabError("--rounds applies to --compare and --reference only")
    rounds = 3 if rounds is None else integer(rounds, "--rounds", 1)
    if json_path and not Path(json_path).resolve().parent.is_dir():
        raise SimlabError(f"--json {json_path}: its folder does not exist")
    games = list(games_) or available_games()
    if reference:
        run_reference(seconds, rounds, players)
    elif search_ and rev is not None:
        run_search_compare(rev, games, seconds, rounds, players, json_path)
    elif search_:
        run_search_bench(games, seconds, players)
    elif profile:
        from simlab.dev.profiling import run_profile

        run_profile(games, seconds, players, mix, annotate=annotate)
    elif rev is not None:
        run_compare(rev, games, seconds, rounds, players, mix, json_path)
    else:
        run_bench(games, seconds, no_jit_games, players, mix)


@cli.command("bench-scale")
@click.option("--game", "-g", "games_", multiple=True, help="benchmark only these games (default: all)")
@click.option("--games", "-n", "n_games", type=int, default=200_000, show_default=True, help="games per run")
@click.option("--memory-games", type=int, default=0, help="also measure peak memory of a Karuba run this long")
@click.option("--memory-mix", type=click.Choice(["heuristic mix", "random"]), default="heuristic mix",
              show_default=True, help="seats of the memory run")
@click.option("--dask/--no-dask", default=True, show_default=True, help="compare a 2-worker local Dask cluster")
def bench_scale(games_, n_games, memory_games, memory_mix, dask):
    """Whole-run throughput with 1 and 2 workers and on Dask, and peak memory of a long run."""
    from simlab.dev.bench import run_scale_bench

    integer(n_games, "--games", 1)
    integer(memory_games, "--memory-games", 0)
    run_scale_bench(list(games_) or available_games(), n_games, memory_games, dask, memory_mix)


@cli.command("bench-cluster")
@click.option("--study-games", type=int, default=2000, show_default=True,
              help="games per run of the curse-threshold study timed on each placement (0: skip it)")
@click.option("--search-game", default="karuba", show_default=True,
              help="the game whose rollout mirror times the search's first chunk on fresh Dask workers ('none': skip)")
def bench_cluster(study_games, search_game):
    """What a study on a cluster costs: per chunk, per run, a whole study, and search players' first chunks."""
    from simlab.dev.bench_cluster import run_cluster_bench

    integer(study_games, "--study-games", 0)
    if search_game != "none":
        get_game(search_game)
    run_cluster_bench(study_games, None if search_game == "none" else search_game)


cli.add_command(experiment)
cli.add_command(compare)
cli.add_command(sweep)
cli.add_command(tune)
cli.add_command(tune_strategy)
cli.add_command(robust)
cli.add_command(report)
cli.add_command(calibrate)


def _on_signal(signum, frame):
    for sig in HANDLED:   # a second signal during the clean-up exits at once
        signal.signal(sig, exit_now)
    raise Interrupted(signum)


def _take_signals() -> dict:
    """SIGINT and SIGTERM raise :class:`Interrupted` (the previous handlers are returned)."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    previous = {sig: signal.getsignal(sig) for sig in HANDLED}
    for sig, handler in previous.items():
        if handler is not signal.SIG_IGN:
            signal.signal(sig, _on_signal)
    return previous


def main(argv=None):
    """Entry point: user errors print one line and exit 2, an interrupt exits 128 + signal, never a traceback."""
    previous = _take_signals()
    try:
        cli.main(args=argv, prog_name="simlab", standalone_mode=False)
    except SimlabError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    except click.exceptions.NoSuchOption as exc:
        click.echo(f"error: {exc.format_message()} (see `simlab {exc.ctx.command.name if exc.ctx else ''} --help`)",
                   err=True)
        sys.exit(2)
    except click.ClickException as exc:
        click.echo(f"error: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code if exc.exit_code else 2)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except Interrupted as exc:
        click.echo("interrupted", err=True)
        sys.exit(128 + exc.signum)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
