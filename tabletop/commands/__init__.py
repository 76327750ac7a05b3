"""One module a sub-command (or a family of them); each registers itself with ``tabletop.cli.command``.

``bench`` dispatches to ``tabletop.benchmarks.<name>`` modules: add a benchmark by adding a module
there with a ``run(args) -> int`` function and a one-line docstring.
"""
