"""What only makes training and test data: nothing in here runs at the table.

* :mod:`vision.synth.scene` — synthetic camera frames of a board with handwriting, perspective,
  uneven light, glare, blur, noise and optionally a hand (the simulated camera, the tests and
  the benchmarks);
* :mod:`vision.synth.handwriting` — letters drawn as a marker on a board would (stroke skeletons);
* :mod:`vision.synth.strokefont` — the stroke skeletons;
* :mod:`vision.synth.fontink` — letters from handwriting fonts (training only);
* :mod:`vision.synth.realdata` — the recorded handwriting in ``shared/data/handwriting``;
* :mod:`vision.synth.letterdata` — the training set's letters, cut exactly as the table cuts them;
* :mod:`vision.synth.dice3d`, :mod:`vision.synth.chips3d` — solid scenes of labelled dice (cubes,
  a label on every face, hands) and of chips on the picture board, seen by a pinhole camera and
  a lens (:mod:`vision.synth.lens`), made unlike :mod:`vision.synth.dicescene` and
  :mod:`vision.synth.chipscene` to measure those readers on pictures they were not tuned on.

The table's own reader (:mod:`vision.reader`, :mod:`vision.cells`, :mod:`vision.letters`,
:mod:`vision.words`, :mod:`vision.tracker`, :mod:`vision.locate`) never imports this package.
"""
