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


def _bins(size_in: int, size_out: int) -> list[tuple[int, int]]:
    """The cells torch's adaptive average pooling averages over (start = floor, end = ceil)."""
    return [((i * size_in) // size_out, -(-((i + 1) * size_in) // size_out)) for i in range(size_out)]


def pooling_matrix(height: int, width: int, grid: tuple[int, int]):
    """(height * width, cells) float32 matrix: a (height, width) map flattened, times it, is torch's adaptive
    average pooling of that map to `grid` (rows, columns), cells in row order."""
    import numpy as np

    rows, columns = _bins(height, grid[0]), _bins(width, grid[1])
    weights = np.zeros((height, width, len(rows) * len(columns)), dtype=np.float32)
    for cell, ((r0, r1), (c0, c1)) in enumerate((row, column) for row in rows for column in columns):
        weights[r0:r1, c0:c1, cell] = 1.0 / ((r1 - r0) * (c1 - c0))
    return weights.reshape(height * width, -1)


def exportable(model, shape: tuple[int, int] = INPUT_SHAPE):
    """The same network with its adaptive pooling spelled out for inputs of `shape` (height, width): ONNX
    has no adaptive pooling to a grid that does not divide the input (10x7 -> 4x3), and the weights depend
    on its exact cells. The pooling is one matrix product (`pooling_matrix`): spelled out cell by cell it
    was 12 slices and means a member, a third of the face classifier's time in onnxruntime."""
    import copy

    import torch
    import torch.nn as nn

    class PoolToGrid(nn.Module):
        def __init__(self, channels: int, height: int, width: int, grid: tuple[int, int]) -> None:
            super().__init__()
            self.shape = (channels, height * width, *grid)
            self.register_buffer("weights", torch.from_numpy(pooling_matrix(height, width, grid)))

        def forward(self, x):
            channels, area, rows, columns = self.shape
            return (x.reshape(-1, channels, area) @ self.weights).reshape(-1, channels, rows, columns)

    model = copy.deepcopy(model).eval()
    layers = list(model)
    x = torch.zeros(1, 3, *shape)
    for number, layer in enumerate(layers):
        if isinstance(layer, nn.AdaptiveAvgPool2d):
            layers[number] = PoolToGrid(x.shape[1], x.shape[2], x.shape[3], tuple(layer.output_size))
        x = layers[number](x)
    return nn.Sequential(*layers).eval()


def export(model, names: list[str], target):
    from models import index_net

    return index_net.export(exportable(model), names, target, INPUT_SHAPE,
                            description="FaceNet: whole-card classifier for pile views (52 cards + none), referee models/face_net.py")


def area_matrix(size_in: int, size_out: int):
    """(size_out, size_in) float32 matrix that shrinks one axis as OpenCV's INTER_AREA does (it is linear and
    works axis by axis, so the matrix is that resize of the identity)."""
    import cv2
    import numpy as np

    return cv2.resize(np.eye(size_in, dtype=np.float32), (size_in, size_out), interpolation=cv2.INTER_AREA)


def export_mean(members: list[tuple[object, tuple[int, int], float]], names: list[str], target):
    """FaceNets as one ONNX model that gives the weighted mean of their readings, each `(model, (height,
    width) it was trained at, weight)`. The file's input is FACE_SIZE; a member trained on smaller crops
    reads the input shrunk to its size inside the graph (`area_matrix`, as the runtime's resize would),
    so the runtime is unchanged: one input, one output.

    Session 32 shipped session 3's model with one fine-tuned on more decks, half each: each alone
    reshuffles the readings of hard views the referee leans on, the mean keeps the new one's better
    reading of decks never seen. Session 36 ships that second one (56 x 80) with one fine-tuned from it
    on 84 x 120 px crops, half each, for the same reason (`models/card_face_classifier.md`)."""
    import torch
    from models import index_net

    class MeanReading(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.members = torch.nn.ModuleList(exportable(model, shape) for model, shape, _ in members)
            self.weights = [weight / sum(weight for *_, weight in members) for *_, weight in members]
            self.shrunk = [tuple(shape) != INPUT_SHAPE for _, shape, _ in members]
            for number, (_, (height, width), _) in enumerate(members):
                if self.shrunk[number]:  # the input shrunk to this member's crop: rows @ x @ columns
                    rows, columns = area_matrix(INPUT_SHAPE[0], height), area_matrix(INPUT_SHAPE[1], width)
                    self.register_buffer(f"rows{number}", torch.from_numpy(rows))
                    self.register_buffer(f"columns{number}", torch.from_numpy(columns.T.copy()))

        def forward(self, x):  # the log of the mean reading: the export's softmax gives the mean back
            mean = 0
            for number, (member, weight) in enumerate(zip(self.members, self.weights)):
                seen = getattr(self, f"rows{number}") @ x @ getattr(self, f"columns{number}") if self.shrunk[number] else x
                mean = mean + weight * torch.softmax(member(seen), dim=1)
            return torch.log(mean + 1e-12)

    return index_net.export(MeanReading().eval(), names, target, INPUT_SHAPE,
                            description="FaceNet mean: the weighted mean of whole-card classifiers for pile views (52 cards + none), referee models/face_net.py")


#: Where a court card's picture lies in a face crop (rows, columns): inside the frame, clear of the corner
#: indices (in an 80x56 crop rows 12-68 and columns 9-47; an index is about 8 x 18 px at each corner).
COURT_PICTURE = (slice(round(INPUT_SHAPE[0] * 12 / 80), round(INPUT_SHAPE[0] * 68 / 80)),
                 slice(round(INPUT_SHAPE[1] * 9 / 56), round(INPUT_SHAPE[1] * 47 / 56)))


def court_picture_swap(court_classes: list[int], share: float = 0.5):
    """A training augmentation: a share of the court cards in a batch get the picture of another court card
    in it (another rank, suit or deck). Every deck draws its kings, queens and jacks differently, so a
    classifier that learned the pictures of the training decks misnames the courts of a deck it never saw
    (52 % right on held-out decks, against 98 % for pip cards); with the pictures shuffled it must read the
    corner index and suit."""
    import torch

    courts = torch.tensor(court_classes)

    def mix(batch, labels, generator):
        where = torch.nonzero(torch.isin(labels, courts)).flatten()
        if len(where) < 2:
            return batch
        chosen = where[torch.rand(len(where), generator=generator) < share]
        if not len(chosen):
            return batch
        donors = where[torch.randint(0, len(where), (len(chosen),), generator=generator)]
        rows, columns = COURT_PICTURE
        batch = batch.clone()
        batch[chosen, :, rows, columns] = batch[donors, :, rows, columns]
        return batch

    return mix
