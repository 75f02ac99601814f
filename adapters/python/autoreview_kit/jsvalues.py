"""JSON values as text, the way the spec says: JavaScript's ``String(value)`` (AR-REVIEW-5) and
``JSON.stringify`` (AR-RES-NORM-1), numbers as ECMAScript writes them.

A Python gate needs these because the spec words its failure messages in JavaScript's terms: a
provider's message ``{"a": 1}`` is ``[object Object]`` in the baseline and ``{"a":1}`` in the
resilient profile, ``1.0`` is ``1`` and ``1e21`` is ``1e+21`` in both.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from typing import Any

__all__ = ["js_json", "js_number", "js_string"]

# JSON.stringify escapes these, and nothing else (lone surrogates since ES2019).
_JSON_ESCAPE = re.compile(r'["\\\x00-\x1f\ud800-\udfff]')
_SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
# An array index as ECMAScript orders object members: a canonical uint32 below 2**32 - 1.
_ARRAY_INDEX = re.compile(r"0|[1-9][0-9]{0,9}")


def js_number(x: int | float | Decimal) -> str:
    """``Number.prototype.toString()`` of ``x`` (ECMA-262 Number::toString, radix 10)."""
    if isinstance(x, bool):
        raise TypeError("a boolean is not a number")
    if isinstance(x, int) and abs(x) <= 2**53:
        return str(x)  # exact in a double and shorter than 1e21: written as is
    x = float(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"  # -0 too
    sign = "-" if x < 0 else ""
    # repr gives the shortest digits that round-trip, as ECMAScript chooses them.
    _, digit_tuple, exponent = Decimal(repr(abs(x))).as_tuple()
    assert isinstance(exponent, int)  # finite
    digits = "".join(map(str, digit_tuple)).rstrip("0")
    k = len(digits)
    n = exponent + len(digit_tuple)  # the value is 0.<digits> * 10**n
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = f"{digits[:n]}.{digits[n:]}"
    elif -6 < n <= 0:
        text = "0." + "0" * -n + digits
    else:
        e = n - 1
        mantissa = digits[0] + (f".{digits[1:]}" if k > 1 else "")
        text = f"{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + text


def js_string(value: Any) -> str:
    """``String(value)`` of a JSON value: ``null``, ``true``, an array's elements joined with
    ``,`` (null as nothing), ``[object Object]`` for an object."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float, Decimal)):
        return js_number(value)
    if isinstance(value, (list, tuple)):
        return ",".join("" if v is None else js_string(v) for v in value)
    if isinstance(value, dict):
        return "[object Object]"
    raise TypeError(f"not a JSON value: {type(value).__name__}")


def _quote(s: str) -> str:
    def escape(m: re.Match[str]) -> str:
        c = m.group()
        return _SHORT_ESCAPES.get(c) or f"\\u{ord(c):04x}"

    return '"' + _JSON_ESCAPE.sub(escape, s) + '"'


def js_json(value: Any) -> str:
    """``JSON.stringify(value)`` of a JSON value: compact, numbers as ECMAScript writes them
    (``null`` for a non-finite one), members with array-index names first in ascending order,
    then the others in the order given."""
    if value is None or value is True or value is False:
        return js_string(value)
    if isinstance(value, str):
        return _quote(value)
    if isinstance(value, (int, float, Decimal)):
        text = js_number(value)
        return "null" if text in ("NaN", "Infinity", "-Infinity") else text
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(js_json(v) for v in value) + "]"
    if isinstance(value, dict):
        indexes = sorted((k for k in value if _ARRAY_INDEX.fullmatch(k) and int(k) < 2**32 - 1), key=int)
        taken = set(indexes)
        others = [k for k in value if k not in taken]
        return "{" + ",".join(f"{_quote(k)}:{js_json(value[k])}" for k in indexes + others) + "}"
    raise TypeError(f"not a JSON value: {type(value).__name__}")
