# Demo checker for item ps-034 (made up). Run: pytest test_parse_rating.py
import pytest
from solution import parse_rating


def test_plug_label():
    assert parse_rating("250V~ 10A") == (250.0, 10.0)


def test_decimal_current():
    assert parse_rating("5V 2.4A") == (5.0, 2.4)


def test_no_rating():
    with pytest.raises(ValueError):
        parse_rating("DEMO PLUG")
