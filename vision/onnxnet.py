"""A network file run by ONNX Runtime, on the calling thread alone.

The readers' networks ship as ONNX files (``vision/models/``). :class:`OnnxNet` loads one and
runs it with one thread a call: a table runs several readers side by side (camera, phones'
scans), so no call takes a second core. ONNX Runtime runs these small networks in about two
thirds of the time OpenCV's ``dnn`` took (the tile network: 0.072 -> 0.045 ms a window, the same
outputs within 2e-5; issue 24's tenth round).

>>> net = OnnxNet(MODELS / "tiles.onnx", "tile model")
>>> logits, = net.run(np.zeros((2, 3, 32, 32), np.float32))
>>> logits.shape[0]
2
>>> OnnxNet(MODELS / "nothing.onnx", "tile model", "run scripts/train_tiles.py")
Traceback (most recent call last):
...
vision.errors.ModelMissing: no tile model at .../nothing.onnx: run scripts/train_tiles.py
"""

from __future__ import annotations

import pathlib

import numpy as np
import onnxruntime

from vision.errors import ModelMissing

MODELS = pathlib.Path(__file__).resolve().parent / "models"


class OnnxNet:
    """The network at ``path`` (``what`` names it in errors; ``make`` says how to make it when
    it is missing), ready to run. One :class:`OnnxNet` may be run from several threads at once."""

    def __init__(self, path: pathlib.Path, what: str = "network", make: str = ""):
        self.path = pathlib.Path(path)
        if not self.path.is_file():
            raise ModelMissing(f"no {what} at {self.path}" + (f": {make}" if make else ""))
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = options.inter_op_num_threads = 1
        options.log_severity_level = 3                     # errors only: no warnings on a user's terminal
        try:
            self.session = onnxruntime.InferenceSession(str(self.path), options, providers=["CPUExecutionProvider"])
        except Exception as error:                         # onnxruntime raises its own types, none exported
            first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            raise ModelMissing(f"{self.path} is not a {what} ONNX Runtime can run ({first})") from error
        self.input = self.session.get_inputs()[0].name
        #: the network's outputs by name, in its order
        self.outputs = [out.name for out in self.session.get_outputs()]

    def run(self, inputs: np.ndarray, outputs: list[str] | None = None) -> list[np.ndarray]:
        """The network's ``outputs`` (all, by default) for ``inputs`` (a batch, float32)."""
        return self.session.run(outputs or self.outputs, {self.input: np.ascontiguousarray(inputs, np.float32)})
