"""Benchmarks run by ``tabletop bench NAME``: each benchmark module has ``run(args) -> int`` and
prints measured numbers.

The other modules here run no benchmark of their own (``tabletop.commands.bench.HELPERS``):
:mod:`~tabletop.benchmarks.stats` (intervals, percentiles, timing, report lines) and
:mod:`~tabletop.benchmarks.scenes` (handwritten scenes), which any benchmark may import and which
import no other benchmark module; and the parts that ``bench vision`` (answers, glare, hands,
outsider, ukrainian; with dice, chips and tiles), ``bench rules`` (questique_moves) and ``bench tiles``
(tile_photos) run. A part never imports another part nor the benchmark that runs it
(``tests/test_import_graph.py``).
"""
