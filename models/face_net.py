"""FaceNet: a small CNN naming a card from its whole face, cut upright along its outline (52 cards + `none`).

Where the corner index is a few blurred pixels (a pile seen by a 720p camera), the pips (their number,
colour and layout) and the court pictures still show which card it is. The crop keeps a coarse grid of
where things are (pooled to 4x3 cells), since a pip count is a layout, not a texture. Trained in plain
torch with `models.index_net.train`; exported like IndexNet (softmax, names and [height, width] in the
metadata) and run by `referee.vision.onnx_models.FaceClassifier`.
"""

from __future__ import annotations

from referee.vision.geometry import FACE_SIZE

#: (height, width) of the input, pixels: the runtime's FACE_SIZE turned round.
INPUT_SHAPE = (FACE_SIZE[1], FACE_SIZE[0])


def build(classes: int):
    import torch.nn as nn

    def block(inputs: int, outputs: int) -> list:
        return [nn.Conv2d(inputs, outputs, 3, padding=1, bias=False), nn.BatchNorm2d(outputs), nn.ReLU(inplace=True)]

    return nn.Sequential(
        nn.Conv2d(3, 24, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(24), nn.ReLU(inplace=True),  # 40x28
        *block(24, 32), nn.MaxPool2d(2),   # 20x14
        *block(32, 64), nn.MaxPool2d(2),   # 10x7
        *block(64, 96), *block(96, 96),
        nn.AdaptiveAvgPool2d((4, 3)), nn.Flatten(),
        nn.Dropout(0.2), nn.Linear(96 * 12, 128), nn.ReLU(inplace=True), nn.Linear(128, classes),
    )
