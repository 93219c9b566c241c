"""Handicap stone placement: the fixed points of GTP ``fixed_handicap``, and checks for free placement."""

from __future__ import annotations

from .coords import check_size


def max_fixed_handicap(size: int) -> int:
    if size < 7:
        return 0
    if size == 7 or size % 2 == 0:
        return 4
    return 9


def fixed_handicap_points(size: int, n: int) -> list[tuple[int, int]]:
    """The standard placement of ``n`` handicap stones (2..9) on a ``size`` board, as GTP defines it."""
    check_size(size)
    top = max_fixed_handicap(size)
    if not isinstance(n, int) or n < 2 or n > top:
        if top == 0:
            raise ValueError(f"a {size}x{size} board has no fixed handicap placement")
        raise ValueError(f"fixed handicap on {size}x{size} must be from 2 to {top} stones, not {n!r}")
    edge = 2 if size < 13 else 3
    lo, hi, mid = edge, size - 1 - edge, size // 2
    # (x, y) with y from the top: lower-left, upper-right, upper-left, lower-right, then sides and centre
    ll, ur, ul, lr = (lo, hi), (hi, lo), (lo, lo), (hi, hi)
    centre = (mid, mid)
    left, right, top_, bottom = (lo, mid), (hi, mid), (mid, lo), (mid, hi)
    order = {
        2: [ll, ur],
        3: [ll, ur, ul],
        4: [ll, ur, ul, lr],
        5: [ll, ur, ul, lr, centre],
        6: [ll, ur, ul, lr, left, right],
        7: [ll, ur, ul, lr, left, right, centre],
        8: [ll, ur, ul, lr, left, right, top_, bottom],
        9: [ll, ur, ul, lr, left, right, top_, bottom, centre],
    }
    return list(order[n])
