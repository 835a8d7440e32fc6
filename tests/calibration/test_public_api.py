import referee.calibration as calibration

PUBLIC = {
    "Calibration", "DriftReport", "DriftStatus", "Finding", "LensModel", "QualityReport", "Verdict", "Zone", "Zones",
    "calibrate_frames", "calibrate_image", "check_drift",
}


def test_public_api_is_stated_and_importable():
    assert set(calibration.__all__) == PUBLIC
    for name in PUBLIC:
        assert getattr(calibration, name) is not None


def test_the_pipeline_contract_methods_exist():
    for method in ("load", "save", "table_to_image", "image_to_table", "rectify", "undistort", "from_corners", "table_to_rectified", "rectified_to_table"):
        assert callable(getattr(calibration.Calibration, method))
    for attribute in ("area_mm", "image_size", "fps", "zones", "play_area_corners_px", "layout"):
        assert attribute in dir(calibration.Calibration) or attribute in calibration.Calibration.__dataclass_fields__
