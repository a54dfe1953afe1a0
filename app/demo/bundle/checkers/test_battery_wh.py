# Demo checker for item ps-032 (made up). Run: pytest test_battery_wh.py
from solution import battery_wh


def test_power_bank():
    assert battery_wh(10000, 3.7) == 37.0


def test_drill_pack():
    assert battery_wh(2000, 18) == 36.0
