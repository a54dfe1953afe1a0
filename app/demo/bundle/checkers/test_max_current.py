# Demo checker for item ps-031 (made up). Run: pytest test_max_current.py
import pytest
from solution import max_current


def test_kettle():
    assert max_current(1800, 220) == 8.18


def test_rejects_zero_voltage():
    with pytest.raises(ValueError):
        max_current(100, 0)
