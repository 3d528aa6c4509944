"""Where the time goes in steady-state play: ``simlab bench --profile``.

A fresh process loads (or compiles) the kernels and plays a few hundred games; then it writes a
perf map (``/tmp/perf-PID.map``) naming every numba-compiled function at its address, says it is
warm and plays on. ``perf record -p PID`` samples it for the measured seconds only (start-up and
compilation never show), and the flat ``perf report`` is grouped by what a developer acts on.
Without the map perf shows numba's code as anonymous ``[JIT]`` addresses.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import warnings
from collections import Counter
from pathlib import Path

import click

from simlab.core.errors import SimlabError

RECIPE = ("the recipe by hand: start a long `simlab run`, then `perf record -p PID -- sleep 10` and "
          "`perf report --no-children --sort dso,sym` (perf from linux-perf / linux-tools; sampling "
          "needs kernel.perf_event_paranoid at 2 or below)")

PROBE = """
import json, sys, time, warnings
warnings.simplefilter("ignore")
from simlab.dev.profiling import keep_objects, write_perf_map
keep_objects()
from simlab.core.runner import Prepared, RunConfig
prep = Prepared(RunConfig.from_dict(json.loads(sys.argv[1])))
start = time.perf_counter()
prep.play(0, 500)
chunk = max(200, int(500 / (time.perf_counter() - start) * 0.1))   # about 0.1 s of play per call
print(write_perf_map(sys.argv[3] if len(sys.argv) > 3 else None), flush=True)
deadline, games = time.monotonic() + float(sys.argv[2]), 500
while time.monotonic() < deadline:
    prep.play(games, chunk)
    games += chunk
"""

GROUPS = (
    "numba reference counting (NRT_incref/NRT_decref)",
    "other numba runtime (allocation, helpers)",
    "JIT-compiled code",
    "Python interpreter",
    "libc / kernel",
    "other",
)
_REFCOUNT = re.compile(r"^(NRT_incref|NRT_decref|nrt_atomic_add|nrt_atomic_sub)\b")
_LINE = re.compile(r"^\s*([\d.]+)%\s+(.*?)\s+\[([.kgujH])\]\s+(.*?)\s*$")


def parse_report(text: str) -> list[tuple[float, str, str]]:
    """``(percent, shared object, symbol)`` of every line of ``perf report --stdio --no-children
    --sort dso,sym``."""
    entries = []
    for line in text.splitlines():
        m = _LINE.match(line)
        if m and not line.lstrip().startswith("#"):
            entries.append((float(m.group(1)), m.group(2), m.group(4)))
    return entries


def group_of(dso: str, symbol: str) -> str:
    """The :data:`GROUPS` entry a sample in ``symbol`` of ``dso`` belongs to."""
    if _REFCOUNT.match(symbol):
        return GROUPS[0]
    if symbol.startswith(("NRT_", "nrt_", "numba_")) or "_nrt_python" in dso or "_helperlib" in dso:
        return GROUPS[1]
    if re.match(r"perf-\d+\.map$", dso) or dso.startswith(("[JIT]", "//anon")) or dso == "[unknown]":
        return GROUPS[2]
    if re.match(r"(lib)?python\d", dso):
        return GROUPS[3]
    if re.match(r"(libc|libm|libpthread|ld-linux)[.-]", dso) or dso.startswith(("[kernel", "[vdso]")):
        return GROUPS[4]
    return GROUPS[5]


def grouped(entries: list[tuple[float, str, str]]) -> dict[str, float]:
    """Percent of samples per group, every group listed."""
    shares = dict.fromkeys(GROUPS, 0.0)
    for percent, dso, symbol in entries:
        shares[group_of(dso, symbol)] += percent
    return shares


def readable(symbol: str) -> str:
    """``simlab.games.karuba.rules.play_game`` for numba's mangled ``_ZN6simlab5games...E...``
    (``cpython.`` or ``cfunc.`` wrappers keep their prefix; argument types are dropped: every
    specialisation of a function counts as the function)."""
    if "_ZN" not in symbol:
        return symbol
    prefix, mangled = symbol.split("_ZN", 1)
    parts, i = [], 0
    while i < len(mangled) and mangled[i].isdigit():
        j = i
        while mangled[j].isdigit():
            j += 1
        parts.append(mangled[j:j + int(mangled[i:j])])
        i = j + int(mangled[i:j])
    return prefix + ".".join(parts) if parts else symbol


def _elf_functions(obj: bytes):
    """``(name, section index, offset, size, is strong global)`` of every function symbol of a
    relocatable ELF64 object (numba's compiled code as cached)."""
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", obj, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", obj, shoff + k * shentsize) for k in range(shnum)]
    for sh in sections:
        if sh[1] != 2:   # SHT_SYMTAB
            continue
        strtab = sections[sh[6]]
        for k in range(sh[5] // 24):
            st_name, st_info, _, st_shndx, st_value, st_size = struct.unpack_from("<IBBHQQ", obj, sh[4] + k * 24)
            if st_info & 0xF != 2 or st_shndx == 0:   # STT_FUNC, defined
                continue
            start = strtab[4] + st_name
            name = obj[start:obj.index(b"\0", start)].decode()
            yield name, st_shndx, st_value, st_size, st_info >> 4 == 1


def keep_objects() -> None:
    """Keep each numba library's object code on the library as ``perf_object``: numba hands a
    cached object to the JIT and forgets it. Call before the first compilation or cache load."""
    from numba.core.codegen import CPUCodeLibrary

    give = CPUCodeLibrary._object_getbuffer_hook.__func__

    def getbuffer(cls, ll_module):
        buf = give(cls, ll_module)
        library = getattr(ll_module, "_CPUCodeLibrary__library", None)   # numba's own back-link
        if buf and library is not None:
            library.perf_object = buf
        return buf

    CPUCodeLibrary._object_getbuffer_hook = classmethod(getbuffer)


def write_perf_map(objects: str | None = None) -> int:
    """Name every numba-compiled function loaded in this process in ``/tmp/perf-PID.map`` (the
    file perf reads for anonymous code); the number of functions named. With ``objects`` (a
    folder), also write each library's object code there (``--annotate`` disassembles it).

    Each library's cached object lists its functions (its own and the copies of every helper
    it links in, ``NRT_incref`` among them) at offsets in their section; one of its own functions,
    whose address the JIT knows, places that section in memory.
    """
    from numba.core.dispatcher import Dispatcher

    libraries = {}
    for module in list(sys.modules.values()):
        for obj in list(getattr(module, "__dict__", {}).values()):
            if isinstance(obj, Dispatcher):
                libraries.update((id(c.library), c.library) for c in obj.overloads.values())
    lines = []
    for k, library in enumerate(libraries.values()):
        obj = getattr(library, "perf_object", None) or getattr(library, "_compiled_object", None)
        if not obj:
            continue
        if objects:
            Path(objects, f"library{k}.o").write_bytes(obj)
        functions = list(_elf_functions(obj))
        for name, section, offset, _, strong in functions:
            address = library.get_pointer_to_function(name) if strong else 0
            if address:
                base = address - offset
                lines += [f"{base + off:x} {size:x} {readable(n)}\n" for n, sec, off, size, _ in functions
                          if sec == section and size]
                break
    lines += _runtime_functions()
    Path(f"/tmp/perf-{os.getpid()}.map").write_text("".join(lines))
    return len(lines)


def _runtime_functions() -> list[str]:
    """perf map lines of numba's runtime library (``nrt_atomic_add`` and the like, where the
    atomic reference counts change), compiled afresh in every process so no object is kept:
    each function runs to the next one's address."""
    from numba.core.runtime import nrt

    library = getattr(nrt.rtsys, "_library", None)
    if library is None:
        return []
    names = [f.name for f in library._final_module.functions if not f.is_declaration]
    starts = sorted((a, n) for n in names if (a := library.get_pointer_to_function(n)))
    ends = [a for a, _ in starts[1:]] + [starts[-1][0] + 64] if starts else []
    return [f"{a:x} {min(end - a, 4096):x} {n}\n" for (a, n), end in zip(starts, ends)]


def _perf() -> str:
    perf = shutil.which("perf")
    if perf is None:
        raise SimlabError(f"perf is not installed, so --profile cannot sample; {RECIPE}")
    return perf


def profile_one(perf: str, config, seconds: float, annotate: str | None = None) -> tuple[str, int, tuple | None]:
    """``(perf report text, functions named, annotation)`` of ``seconds`` of steady-state play of
    ``config``; the annotation (see :func:`annotation`) only when ``annotate`` names a function."""
    from simlab.dev.revision import ROOT

    args = [sys.executable, "-c", PROBE, json.dumps(config.to_dict())]
    warm = subprocess.run([*args, "0"], cwd=ROOT, capture_output=True, text=True)   # compile into the cache
    if warm.returncode != 0:
        raise SimlabError(f"the profiled game failed: {(warm.stderr.strip() or 'no output').splitlines()[-1]}")
    with tempfile.TemporaryDirectory() as tmp:
        probe = subprocess.Popen([*args, str(seconds + 60), *([tmp] if annotate else [])], cwd=ROOT,
                                 stdout=subprocess.PIPE, text=True, env={**os.environ, "NUMBA_NUM_THREADS": "1"})
        perf_map = Path(f"/tmp/perf-{probe.pid}.map")
        try:
            named = int(probe.stdout.readline() or -1)
            data = str(Path(tmp) / "perf.data")
            rec = subprocess.run([perf, "record", "-q", "-F", "1999", "-p", str(probe.pid), "-o", data, "--",
                                  "sleep", str(seconds)], capture_output=True, text=True)
            if rec.returncode != 0 or not Path(data).exists():
                why = (rec.stderr.strip() or f"exit code {rec.returncode}").splitlines()[0]
                raise SimlabError(f"perf cannot sample here ({why}); {RECIPE}")
            report = subprocess.run([perf, "report", "-i", data, "--stdio", "--no-children", "--sort", "dso,sym",
                                     "--percent-limit", "0"], capture_output=True, text=True)
            if report.returncode != 0:
                raise SimlabError(f"perf report failed ({report.stderr.strip().splitlines()[-1]}); {RECIPE}")
            notes = None
            if annotate:
                ips = subprocess.run([perf, "script", "-i", data, "-F", "ip,sym"], capture_output=True, text=True)
                notes = annotation(annotate, ips.stdout, perf_map.read_text(), Path(tmp))
            return report.stdout, named, notes
        finally:
            probe.kill()
            probe.wait()
            perf_map.unlink(missing_ok=True)


def sample_offsets(samples: str, perf_map: str, wanted: str) -> tuple[str | None, int, Counter]:
    """The most sampled compiled function whose name contains ``wanted``: ``(name, size, samples by
    offset from its start)``. ``samples`` is ``perf script -F ip,sym`` output, ``perf_map`` the map
    that named the JIT code (``address size name`` lines). A function linked into several libraries
    has several copies in the map: each sample counts for the copy whose range holds it."""
    copies: dict[str, list[tuple[int, int]]] = {}
    for line in perf_map.splitlines():
        address, size, name = line.split(" ", 2)
        copies.setdefault(name, []).append((int(address, 16), int(size, 16)))
    by_copy: dict[tuple[str, int, int], Counter] = {}
    for line in samples.splitlines():
        ip, _, symbol = line.strip().partition(" ")
        symbol = symbol.strip()
        if wanted not in symbol:
            continue
        address = int(ip, 16)
        for start, size in copies.get(symbol, ()):
            if start <= address < start + size:
                by_copy.setdefault((symbol, start, size), Counter())[address - start] += 1
                break
    if not by_copy:
        return None, 0, Counter()
    best = max(by_copy, key=lambda k: sum(by_copy[k].values()))
    return best[0], best[2], by_copy[best]


_TARGET = re.compile(r"<[^>+]*(\+0x[0-9a-f]+)?>")


def disassembly(objects: Path, symbol: str, size: int) -> list[tuple[int, str]]:
    """``(offset, instruction)`` of the compiled function named ``symbol`` (readable name) of ``size``
    bytes, from the objects the probe wrote; jump targets shortened to their offsets. Empty when
    not found."""
    for path in sorted(objects.glob("library*.o")):
        for name, _, _, length, _ in _elf_functions(path.read_bytes()):
            if length == size and readable(name) == symbol:
                objdump = shutil.which("objdump")
                if objdump is None:
                    raise SimlabError("objdump (binutils) is not installed, so --annotate cannot disassemble")
                out = subprocess.run([objdump, "-d", "--no-show-raw-insn", f"--disassemble={name}", str(path)],
                                     capture_output=True, text=True).stdout
                rows = [(int(m.group(1), 16), _TARGET.sub(lambda t: f"<{t.group(1) or ''}>", m.group(2)).strip())
                        for m in re.finditer(r"^\s*([0-9a-f]+):\s+(.*)$", out, re.M)]
                return [(address - rows[0][0], text) for address, text in rows] if rows else []
    return []


def annotation(wanted: str, samples: str, perf_map: str, objects: Path) -> tuple:
    """``(symbol, its samples, [(share, offset, instruction), ...] hottest first)`` for the function
    ``--annotate`` names; ``(None, 0, [])`` when none of its name was sampled."""
    symbol, size, offsets = sample_offsets(samples, perf_map, wanted)
    if symbol is None:
        return None, 0, []
    total = sum(offsets.values())
    listing = dict(disassembly(objects, symbol, size))
    hot = sorted(offsets.items(), key=lambda kv: -kv[1])
    return symbol, total, [(count / total, off, listing.get(off, "?")) for off, count in hot]


def run_profile(games: list[str], seconds: float, players: int | None, mix: str | None, top: int = 15,
                annotate: str | None = None) -> None:
    from simlab.dev.bench import selected

    warnings.simplefilter("ignore")
    rows = selected(games, players, mix)
    perf = _perf()
    for game, mix_name, config in rows:
        text, named, notes = profile_one(perf, config, seconds, annotate)
        entries = parse_report(text)
        samples = re.search(r"^# Samples: (\S+) of event '([^']+)'", text, re.M)
        click.echo(f"\n{game}, {config.players} players, {mix_name}: {seconds:g} s of steady-state play, "
                   + (f"{samples.group(1)} samples of {samples.group(2)}" if samples else "perf samples")
                   + (f"; JIT code named from a perf map ({named:,} functions)" if named > 0
                      else "; JIT code unnamed (no compiled objects found: it shows as [JIT] addresses)"))
        for name, share in grouped(entries).items():
            click.echo(f"  {share:6.1f}%  {name}")
        click.echo(f"  top {top} symbols:")
        for percent, dso, symbol in sorted(entries, reverse=True)[:top]:
            click.echo(f"  {percent:6.1f}%  {symbol[:70]:<72}{dso[:30]}")
        if notes is not None:
            symbol, total, hot = notes
            if symbol is None:
                click.echo(f"  --annotate {annotate}: no samples in a function of that name")
                continue
            click.echo(f"  hottest instructions of {symbol} ({total:,} samples; offset from its start; a "
                       "sample often lands just after the instruction that stalled):")
            for share, off, instruction in hot[:top]:
                click.echo(f"  {100 * share:6.1f}%  +{off:<6x}{instruction[:80]}")
