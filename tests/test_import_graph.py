"""Layering (issues 31, 45): no module of simlab, strategies or experiments imports, even inside a
function, a module that imports it back (such a circle is a design knot, two rooms that each need
the other, hidden while the import happens late), nor a module of a higher layer (the core finds
games, strategies, players and experiments through the registry, never by importing them).

The analysis is three rooms, one floor each: measures (frames to findings: numbers, no words, no
pages), report (findings to words to pages) and studies (what to play and in what order); measures
import neither of the others and the report imports no study."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("simlab", "strategies", "experiments")
# From the ground up: a module imports only modules of its own layer or below (the longest prefix
# that matches a module names its layer).
LAYERS = (
    ("simlab.signals", "simlab.core"),
    ("simlab.games", "simlab.search", "simlab.reference", "simlab.measures"),
    ("simlab.report",),
    ("simlab.studies", "simlab.playtest", "simlab.dev.revision", "simlab"),
    ("strategies", "experiments", "simlab.calibration", "simlab.dev.regress"),
    ("simlab.dev",),
    ("simlab.cli",),
    ("simlab.__main__", "simlab.regress"),
)
# Rooms of one layer that must not lean on each other: the rules never read strategies, searches
# or measures; the search never reads a game's own modules (it gets the step model); the measures
# read no game's own modules either (they read frames and the game's declared spec).
NEVER = (("simlab.games", ("simlab.search", "simlab.measures")), ("simlab.search", ("simlab.games", "simlab.measures")),
         ("simlab.measures", ("simlab.games", "simlab.search", "simlab.reference")))


def module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_of(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py") if "__pycache__" not in p.parts}


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The project's modules that ``path`` imports anywhere in it (a name imported from a package
    that is itself a module counts as that module)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            subs = [f"{source}.{a.name}" for a in node.names]
            targets = [t for t in subs if t in known] or [source]   # `from . import x`: the module x
        else:
            continue
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name and (t in known):
                out.add(t)
    return out


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_import_graph_finds_a_circle_where_there_is_one():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_one_that_imports_it_back():
    mods = modules()
    graph = {name: imports(name, path, set(mods)) for name, path in mods.items()}
    assert "simlab.core.runner" in graph["simlab.cli"] or any("simlab.core" in m for m in graph["simlab.cli"])
    assert circles(graph) == []


def layer(module: str) -> int:
    matches = [(len(p), k) for k, prefixes in enumerate(LAYERS) for p in prefixes
               if module == p or module.startswith(p + ".")]
    assert matches, f"{module} is in no layer"
    return max(matches)[1]


def upward(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a higher layer's module, or of a room its own may never use."""
    found = [f"{m} -> {t}" for m, ts in graph.items() for t in ts if layer(t) > layer(m)]
    for low, banned in NEVER:
        found += [f"{m} -> {t}" for m, ts in graph.items() if m.startswith(low + ".") for t in ts
                  if any(t.startswith(b + ".") or t == b for b in banned)]
    return sorted(found)


def test_the_layer_check_finds_an_upward_import_where_there_is_one():
    assert upward({"simlab.core.game": {"simlab.games"}, "simlab.games": set()}) == ["simlab.core.game -> simlab.games"]
    assert upward({"simlab.games.karuba.step": {"simlab.search.players"}, "simlab.search.players": set()})
    assert upward({"simlab.cli": {"simlab.core.game"}, "simlab.core.game": set()}) == []
    assert upward({"simlab.report.page": {"simlab.studies.compare"}, "simlab.studies.compare": set()})
    assert upward({"simlab.dev.bench": {"simlab.cli.studies"}, "simlab.cli.studies": set()})   # the longest prefix


def test_no_module_imports_from_a_layer_above_it():
    mods = modules()
    graph = {name: imports(name, path, set(mods)) for name, path in mods.items()}
    assert upward(graph) == []


def test_the_measures_read_no_study_and_no_page_and_the_pages_no_study():
    mods = modules()
    graph = {name: imports(name, path, set(mods)) for name, path in mods.items()}
    assert any(m.startswith("simlab.measures.") for m in graph) and any(m.startswith("simlab.studies.") for m in graph)
    within = lambda m, room: m == room or m.startswith(room + ".")
    leaks = [f"{m} -> {t}" for m, ts in graph.items() for t in ts
             if (within(m, "simlab.measures") and (within(t, "simlab.studies") or within(t, "simlab.report")))
             or (within(m, "simlab.report") and within(t, "simlab.studies"))]
    assert leaks == []
