"""SuitNet: a small CNN naming the suit of a card from one index corner (clubs, diamonds, hearts,
spades, or `none`).

The face classifier reads a pile's top card at about 0.9 px per mm, where a heart and a diamond, or a
club and a spade, are a few pixels of the same colour; court cards, whose pictures differ from deck to
deck, lose their suit most. This reader sees an index corner at 2 px per mm
(`referee.vision.geometry.suit_corners`), where the corner's suit sign and, on most court cards, the
big one in the corner of the picture's frame keep their shapes; suits look alike across decks, so it
learns them from every card of every deck. Trained in plain torch with `models.index_net.train`;
exported like IndexNet (softmax, names and [height, width] in the metadata) and run by
`referee.vision.onnx_models.SuitClassifier`.
"""

from __future__ import annotations

from referee.vision.geometry import SUIT_PX_PER_MM, SUIT_REGION_MM

#: (height, width) of the input, pixels.
INPUT_SHAPE = (int(round(SUIT_REGION_MM[1] * SUIT_PX_PER_MM)), int(round(SUIT_REGION_MM[0] * SUIT_PX_PER_MM)))


def build(classes: int):
    import torch.nn as nn

    def block(inputs: int, outputs: int) -> list:
        return [nn.Conv2d(inputs, outputs, 3, padding=1, bias=False), nn.BatchNorm2d(outputs), nn.ReLU(inplace=True)]

    return nn.Sequential(
        nn.Conv2d(3, 24, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(24), nn.ReLU(inplace=True),  # 40x32
        *block(24, 32), nn.MaxPool2d(2),   # 20x16
        *block(32, 64), nn.MaxPool2d(2),   # 10x8
        *block(64, 96), *block(96, 96),
        nn.AdaptiveMaxPool2d(1), nn.Flatten(),  # a suit sign anywhere in the corner
        nn.Dropout(0.2), nn.Linear(96, classes),
    )


def export(model, names: list[str], target):
    from models import index_net

    return index_net.export(model, names, target, INPUT_SHAPE,
                            description="SuitNet: suit classifier for one index corner (C, D, H, S + none), referee models/suit_net.py")
