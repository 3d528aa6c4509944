"""Other git revisions of this checkout, side by side with the working tree.

``simlab.dev.regress diff`` (does REV play the same games?) and ``simlab bench --compare`` (is REV
faster?) run code of another commit in a subprocess. Each revision is checked out once into a
worktree kept under the system's temp folder, so its numba cache survives: a second run against
the same revision starts warm.
"""
from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from simlab.core.errors import SimlabError

ROOT = Path(__file__).resolve().parents[2]


def _git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True)


def resolve(rev: str) -> str:
    """The full commit id of ``rev``; a one-line error when git does not know it."""
    out = _git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    if out.returncode != 0:
        if _git("rev-parse", "--git-dir").returncode != 0:
            raise SimlabError(f"{ROOT} is not a git checkout: comparing with a revision needs simlab's git tree")
        raise SimlabError(f"git does not know the revision {rev!r}")
    return out.stdout.strip()


def describe_working_tree() -> str:
    """``HEAD``'s short id, with ``+dirty`` when the working tree differs from it."""
    head = resolve("HEAD")[:12]
    changed = _git("status", "--porcelain").stdout.strip()
    return head + ("+dirty" if changed else "")


def checkout(rev: str) -> tuple[str, Path, bool]:
    """``(commit id, tree, fresh)``: ``rev`` checked out in its kept worktree (``fresh`` when it
    was made now, so its numba cache is cold)."""
    sha = resolve(rev)
    tree = Path(tempfile.gettempdir()) / "simlab-regress" / sha
    fresh = not (tree / ".git").exists()
    if fresh:
        tree.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), sha], check=True)
    return sha, tree, fresh
