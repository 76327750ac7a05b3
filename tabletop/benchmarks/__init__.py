"""Benchmarks run by ``tabletop bench NAME``: each module has ``run(args) -> int`` and prints measured numbers."""
