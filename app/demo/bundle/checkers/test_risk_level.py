# Demo checker for item ps-035 (made up). Run: pytest test_risk_level.py
from solution import risk_level


def test_levels():
    assert risk_level(3, 3) == "III"
    assert risk_level(2, 2) == "II"
    assert risk_level(1, 3) == "I"
    assert risk_level(4, 2) == "II"
