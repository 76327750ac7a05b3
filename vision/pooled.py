"""A small convolutional network run by OpenCV's ``dnn`` a block at a time, its 2x2 max pooling done
by numpy: the same numbers as the whole network, for less CPU.

OpenCV's classic engine spends about a third of a small network's time in its max-pooling layers
(the tile networks: 3x3 convolutions of 8, 16 and 32 channels on 32x32 windows, each followed by a
ReLU and a 2x2 max pool, then two dense layers). A 2x2 maximum is exact however it is taken, so
:func:`split` rebuilds such a network as one ``dnn`` network per convolution (its weights and
bias copied from the loaded network, the ReLU after it) and one for the dense layers, and takes
the maxima between them with numpy. It gives the split only when it reads probe windows exactly,
bit for bit, as the whole network does, and None for a network of another shape, so a caller
falls back to the whole network.

>>> x = np.arange(2 * 1 * 4 * 4, dtype=np.float32).reshape(2, 1, 4, 4)
>>> max_pool(x)[0, 0].tolist()
[[5.0, 7.0], [13.0, 15.0]]
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: the layers' types, in order, that :func:`split` takes apart: blocks of these ...
BLOCK = ("Convolution", "ReLU", "Pooling")
#: ... then these (an ``Identity`` naming the output may follow)
DENSE = ("Flatten", "Flatten", "Gemm", "ReLU", "Gemm")


def max_pool(x: np.ndarray) -> np.ndarray:
    """The 2x2, stride-2 maximum of ``x`` (n, channels, h, w) -> (n, channels, h // 2, w // 2), as
    an ONNX ``MaxPool`` without padding takes it (an odd last row or column is left out)."""
    h, w = x.shape[2] // 2 * 2, x.shape[3] // 2 * 2
    rows = np.maximum(x[:, :, 0:h:2, :w], x[:, :, 1:h:2, :w])
    return np.maximum(rows[..., 0::2], rows[..., 1::2])


@dataclass
class SplitNet:
    """A network as ``dnn`` blocks (a convolution and its ReLU) with numpy's max pooling between
    them and a ``dnn`` network for the dense layers (see the module docstring)."""

    blocks: list[cv2.dnn.Net]
    dense: cv2.dnn.Net

    def forward(self, blob: np.ndarray) -> np.ndarray:
        """The network's output for ``blob`` (n, channels, h, w) float32, C-ordered: a copy."""
        x = blob
        for block in self.blocks:
            block.setInput(x)
            x = max_pool(block.forward())
        self.dense.setInput(np.ascontiguousarray(x.reshape(len(x), -1)))
        return np.array(self.dense.forward(), np.float32)


def split(net: cv2.dnn.Net, probe: np.ndarray) -> SplitNet | None:
    """``net`` (an ONNX network read by ``cv2.dnn``'s classic engine) as a :class:`SplitNet`, when
    its layers are blocks of a convolution, a ReLU and a max pool, then flatten, dense, ReLU,
    dense, and the split reads ``probe`` (n, channels, h, w float32) and its first few windows
    exactly as ``net`` does; None otherwise."""
    names = list(net.getLayerNames())
    layers = [net.getLayer(net.getLayerId(name)) for name in names]
    types = [layer.type for layer in layers]
    if types and types[-1] == "Identity":
        types, layers = types[:-1], layers[:-1]
    count = (len(types) - len(DENSE)) // len(BLOCK)
    if count < 1 or tuple(types) != BLOCK * count + DENSE:
        return None
    try:
        blocks = [_conv_net(layers[k * len(BLOCK)]) for k in range(count)]
        dense = _dense_net(layers[-3], layers[-1])
        pieces = SplitNet(blocks, dense)
        for part in (probe, probe[:3]):
            part = np.ascontiguousarray(part, np.float32)
            net.setInput(part)
            whole = np.array(net.forward(), np.float32)
            if not np.array_equal(pieces.forward(part), whole):
                return None
    except cv2.error:
        return None
    return pieces


def _conv_net(layer: cv2.dnn.Layer) -> cv2.dnn.Net:
    """A ``dnn`` network of the convolution ``layer`` (square kernel, stride 1, padded to keep the
    size) and a ReLU."""
    weights, bias = (np.array(b, np.float32) for b in layer.blobs)
    size = int(weights.shape[2])
    net = cv2.dnn.Net()
    params: dict[str, int | float | str] = {"kernel_size": size, "pad": (size - 1) // 2, "stride": 1,
                                            "num_output": int(weights.shape[0]), "bias_term": True}
    conv = net.addLayerToPrev("conv", "Convolution", cv2.CV_32F, params)
    net.getLayer(conv).blobs = [weights, bias.reshape(-1)]
    net.addLayerToPrev("relu", "ReLU", cv2.CV_32F, {})
    return net


def _dense_net(first: cv2.dnn.Layer, second: cv2.dnn.Layer) -> cv2.dnn.Net:
    """A ``dnn`` network of the dense layers ``first`` (then a ReLU) and ``second``."""
    net = cv2.dnn.Net()
    params: dict[str, int | float | str] = {"transB": True, "const_B": True, "const_C": True, "have_bias": True,
                                            "alpha": 1.0, "beta": 1.0}
    for k, layer in enumerate((first, second)):
        weights, bias = (np.array(b, np.float32) for b in layer.blobs)
        dense = net.addLayerToPrev(f"dense{k}", "Gemm", cv2.CV_32F, params)
        net.getLayer(dense).blobs = [weights, bias]
        if k == 0:
            net.addLayerToPrev("relu", "ReLU", cv2.CV_32F, {})
    return net


__all__ = ["SplitNet", "max_pool", "split"]
