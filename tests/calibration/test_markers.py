import numpy as np
import pytest

from referee.calibration.markers import detect_markers, table_marker_sightings
from referee.errors import CalibrationError
from referee.table.layout import TableLayout
from tests.calibration.conftest import BARREL, NO_DISTORTION, rendered


@pytest.mark.parametrize("tilt, distortion", [(0, NO_DISTORTION), (35, NO_DISTORTION), (20, BARREL)])
def test_corners_are_found_to_sub_pixel_precision(tilt, distortion):
    frame, camera = rendered(tilt, distortion)
    markers = table_marker_sightings(detect_markers(frame))
    layout = TableLayout()
    errors = np.concatenate(
        [np.linalg.norm(markers[i].corners_px - camera.project(np.array(layout.marker_corners(i))), axis=1) for i in range(4)]
    )
    assert sorted(markers) == [0, 1, 2, 3]
    assert errors.mean() < 0.4 and errors.max() < 0.8


@pytest.mark.parametrize(
    "markers, extra, message",
    [
        ((), (), "no play-area markers found"),
        ((0, 1, 3), (), "marker 2 (B's left corner (W, H)) not found (found 0, 1, 3): it is covered"),
        ((0, 3), (), "marker 1 (A's right corner (W, 0)); marker 2 (B's left corner (W, H)) not found (found 0, 3): they are covered"),
        ((0, 1, 2, 3), ((0, (370.0, 270.0)),), "marker 0 (2 times) seen more than once"),
    ],
)
def test_missing_and_doubled_markers_are_named(markers, extra, message):
    frame, _ = rendered(markers=markers, extra_markers=extra)
    with pytest.raises(CalibrationError) as error:
        table_marker_sightings(detect_markers(frame))
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_markers_of_other_ids_are_ignored():
    frame, _ = rendered(extra_markers=((7, (370.0, 270.0)),))
    found = detect_markers(frame)
    assert 7 in [s.marker_id for s in found]
    assert sorted(table_marker_sightings(found)) == [0, 1, 2, 3]
