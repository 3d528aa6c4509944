"""simlab's version: in core, so that the code that records provenance needs nothing above it."""
VERSION = "0.1.0"
