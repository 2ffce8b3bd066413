"""Solar Hijri (Jalali) days as the Gregorian days vaultmem keeps (vaultmem/jalali.py)."""

from __future__ import annotations

from datetime import date

import pytest

from vaultmem.jalali import gregorian_day, said_day, solar_hijri_said


@pytest.mark.parametrize(("jalali", "gregorian"), [
    ((1403, 1, 1), date(2024, 3, 20)),  # Nowruz after a Gregorian leap year
    ((1402, 1, 1), date(2023, 3, 21)),
    ((1403, 5, 12), date(2024, 8, 2)),
    ((1399, 12, 30), date(2021, 3, 20)),  # the last day of a leap year
    ((1403, 12, 30), date(2025, 3, 20)),
    ((1404, 9, 11), date(2025, 12, 2)),
    ((1354, 1, 1), date(1975, 3, 21)),
    ((1403, 7, 1), date(2024, 9, 22)),  # the first month of 30 days
])
def test_a_solar_hijri_day_is_the_gregorian_day_the_calendar_says(jalali: tuple[int, int, int], gregorian: date) -> None:
    assert gregorian_day(*jalali) == gregorian


@pytest.mark.parametrize("jalali", [(1402, 12, 30), (1403, 7, 31), (1403, 13, 1), (1403, 0, 10), (1403, 1, 0)])
def test_a_day_the_solar_hijri_calendar_lacks_is_refused(jalali: tuple[int, int, int]) -> None:
    with pytest.raises(ValueError):
        gregorian_day(*jalali)


def test_a_day_in_persian_digits_with_a_solar_hijri_year_is_named_with_its_gregorian_day() -> None:
    said = solar_hijri_said("۱۴۰۳/۰۵/۱۲")
    assert "Solar Hijri" in said and said_day(said) == "2024-08-02"
    assert said_day(solar_hijri_said("۱۴۰۳-۵-۱۲")) == "2024-08-02"
    assert "Hijri" in solar_hijri_said("١٤٤٦/٠٢/١٠") and said_day(solar_hijri_said("١٤٤٦/٠٢/١٠")) == ""  # lunar, perhaps: not converted
    assert solar_hijri_said("۲۰۲۴-۰۸-۰۲") == ""  # a Gregorian year in Persian digits is one
    assert solar_hijri_said("1403-05-12") == ""  # ASCII digits say no calendar
    assert solar_hijri_said(20240802) == ""
