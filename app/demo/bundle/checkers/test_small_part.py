# Demo checker for item ps-033 (made up). Run: pytest test_small_part.py
from solution import is_small_part


def test_bead_fits():
    assert is_small_part(10, 10, 10)


def test_long_rod_fits_lengthwise():
    assert is_small_part(50, 5, 5)


def test_wide_disc_does_not_fit():
    assert not is_small_part(40, 40, 3)
