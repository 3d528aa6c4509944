"""Developer tools: benchmarks (``simlab bench``), profiles (``simlab profile``), the frames
regression (``python -m simlab.regress``) and other revisions of the checkout side by side."""
