"""The face classifier's training augmentation (needs torch, from the training extra)."""

import pytest

torch = pytest.importorskip("torch")

from models.face_net import COURT_PICTURE, INPUT_SHAPE, court_picture_swap  # noqa: E402


def test_court_cards_swap_pictures_and_keep_their_corners_while_pip_cards_stay_as_they_are():
    batch = torch.rand(64, 3, *INPUT_SHAPE)
    labels = torch.tensor([5 if number % 2 else 40 for number in range(64)])  # 5: a pip card, 40: a court card
    mixed = court_picture_swap([40], share=1.0)(batch, labels, torch.Generator().manual_seed(0))
    rows, columns = COURT_PICTURE
    courts, pips = labels == 40, labels == 5
    assert torch.equal(mixed[pips], batch[pips])
    corners = torch.ones(*INPUT_SHAPE, dtype=torch.bool)
    corners[rows, columns] = False
    assert torch.equal(mixed[courts][:, :, corners], batch[courts][:, :, corners])  # indices untouched
    pictures = mixed[courts][:, :, rows, columns]
    donors = [next(k for k in torch.nonzero(courts).flatten() if torch.equal(picture, batch[k][:, rows, columns]))
              for picture in pictures]
    assert len(set(int(k) for k in donors)) > 16  # pictures come from many other court cards of the batch
    assert not torch.equal(mixed, batch)


def test_the_exported_pooling_is_torchs_adaptive_pooling_to_a_grid_the_map_does_not_divide():
    """ONNX has no adaptive pooling: the export pools by one matrix product (`pooling_matrix`), which must
    average over torch's own cells (10 rows to 4 overlap: 0-3, 2-5, 5-8, 7-10)."""
    from models.face_net import pooling_matrix

    features = torch.rand(2, 5, 10, 7)
    pooled = (features.reshape(2, 5, 70) @ torch.from_numpy(pooling_matrix(10, 7, (4, 3)))).reshape(2, 5, 4, 3)
    assert torch.allclose(pooled, torch.nn.AdaptiveAvgPool2d((4, 3))(features), atol=1e-6)
    assert torch.allclose(pooled[:, :, 1, 0], features[:, :, 2:5, 0:3].mean(dim=(2, 3)), atol=1e-6)
