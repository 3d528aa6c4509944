"""``python -m simlab.regress check|write|diff``: the frames regression's command, kept at the name the
guides give it; the tool itself is :mod:`simlab.dev.regress`."""
import sys

from simlab.dev.regress import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
