"""Safe expressions for the rules a game declares in its data.

Count rules and computed table columns are written by designers in YAML, so they are evaluated
with simpleeval (no attribute access to internals, no imports, no builtins beyond a whitelist).
Cards and rows are seen through `Record` proxies; a value the source does not give is an
`UnknownValue`, which refuses to take part in any comparison or arithmetic, so a check that
touches it reports "cannot be checked" instead of silently passing or failing.
"""

from __future__ import annotations

import ast
import math
import re
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import simpleeval

from .model import Card, Game, Row, Unknown
from .safety.budget import Spent, budget_spent, charge, own_budget_unless_shared, walks
from .safety.limits import MAX_NUMBER_BITS

MAX_POWER = 1_000  # keep `10 ** 10 ** 10` out


class ExpressionError(Exception):
    """The expression is malformed or failed; `message` is for the designer."""

    # True for the repeats of an error that must be reported once (a spent work budget):
    # a caller that sees it reports nothing.
    repeated = False


class BudgetExceeded(ExpressionError):
    """The expressions of one run have done all the work they may (safety/budget.py)."""

    def __init__(self, spent: Spent) -> None:
        super().__init__(str(spent))
        self.repeated = spent.repeated


class UnknownTouched(Exception):
    """The expression needed a value the source does not give."""

    def __init__(self, unknown: Unknown, what: str) -> None:
        super().__init__(what)
        self.unknown = unknown
        self.what = what


class UnknownValue:
    """An unknown as seen from an expression: usable only with `known()`."""

    __slots__ = ("_unknown", "_what")

    def __init__(self, unknown: Unknown, what: str) -> None:
        self._unknown = unknown
        self._what = what

    def _refuse(self, *_: Any) -> Any:
        raise UnknownTouched(self._unknown, self._what)

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _refuse
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _refuse
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = _refuse
    __bool__ = __iter__ = __len__ = __contains__ = __getitem__ = __int__ = _refuse
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"unknown({self._what})"


def expose(value: Any, what: str) -> Any:
    if isinstance(value, Unknown):
        return UnknownValue(value, what)
    if isinstance(value, list | tuple):
        return [expose(v, what) for v in value]
    return value


class Record:
    """A read-only attribute view of a card or a table row, for expressions."""

    __slots__ = ("_item", "_label", "_values")

    def __init__(self, item: Card | Row, values: Mapping[str, Any], label: str) -> None:
        self._item = item
        self._values = values
        self._label = label

    def __getattr__(self, name: str) -> Any:
        values = object.__getattribute__(self, "_values")
        if name in values:
            return expose(values[name], f"{self._label}.{name}")
        known = ", ".join(sorted(values))
        raise ExpressionError(f"{self._label} has no field {name!r} (it has: {known})")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Record) and other._item is self._item

    def __hash__(self) -> int:
        return id(self._item)

    def __repr__(self) -> str:
        return self._label

    @property
    def item(self) -> Card | Row:
        return self._item


def card_record(card: Card) -> Record:
    values = {
        "id": card.id,
        "type": card.type,
        "name": card.name,
        "count": card.count,
        "number": card.number,
        **card.fields,
    }
    return Record(card, values, card.id)


def row_record(row: Row, table_id: str) -> Record:
    return Record(row, row.values, f"{table_id} row")


def unwrap(item: Any) -> Card | Row | None:
    return item.item if isinstance(item, Record) else None


MAX_RANGE = 100_000  # a rule about player counts or card numbers never needs more


def _range(*args: int) -> range:
    """range(), refused beyond MAX_RANGE items: `sum(range(10**12))` must not hang validate."""
    r = range(*args)
    if len(r) > MAX_RANGE:
        raise ExpressionError(f"range of {len(r)} items is too long (at most {MAX_RANGE})")
    charge(len(r))
    return r


def _known(value: Any) -> bool:
    return not isinstance(value, UnknownValue | Unknown)


def _tally(items: Iterable[Any]) -> dict[Any, int]:
    return dict(Counter(items))


BASE_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "len": len,
    "sum": walks(sum),
    "min": walks(min),
    "max": walks(max),
    "all": walks(all),
    "any": walks(any),
    "abs": abs,
    "sorted": walks(sorted),
    "set": walks(set),
    "list": walks(list),
    "range": _range,
    "int": int,
    "str": str,
    "ceil": math.ceil,
    "floor": math.floor,
    "round": round,
    "tally": walks(_tally),
    "known": _known,
}


def _too_big(bits: int) -> ExpressionError:
    return ExpressionError(
        f"the result would have about {bits} bits, above the limit of {MAX_NUMBER_BITS} "
        "(the limit of whole numbers in expressions)"
    )


def _power(a: Any, b: Any) -> Any:
    if abs(b) > MAX_POWER:
        raise ExpressionError(f"exponent {b} is too large")
    # each power is allowed on its own; a chain ((10 ** 999) ** 999) ** 999 is stopped by size
    if isinstance(a, int) and isinstance(b, int) and b > 0 and abs(a) > 1:
        bits = a.bit_length() * b
        if bits > MAX_NUMBER_BITS:
            raise _too_big(bits)
    return a**b


def _multiply(a: Any, b: Any) -> Any:
    if isinstance(a, int) and isinstance(b, int):
        bits = a.bit_length() + b.bit_length()
        if bits > MAX_NUMBER_BITS:
            raise _too_big(bits)
    return simpleeval.safe_mult(a, b)


def _shift(a: Any, b: Any) -> Any:
    if isinstance(a, int) and isinstance(b, int) and a.bit_length() + b > MAX_NUMBER_BITS:
        raise _too_big(a.bit_length() + b)
    return simpleeval.safe_lshift(a, b)


class _Evaluator(simpleeval.EvalWithCompoundTypes):
    """simpleeval, charging one step of the run's budget for every node it evaluates."""

    def _eval(self, node: ast.AST) -> Any:
        charge(1)
        return super()._eval(node)


def evaluate(
    expression: str, names: Mapping[str, Any], functions: Mapping[str, Callable] | None = None
) -> Any:
    """Evaluate `expression`; raises ExpressionError or UnknownTouched."""
    if budget_spent():  # refused at once, before parsing
        raise BudgetExceeded(Spent(repeated=True))
    operators = dict(simpleeval.DEFAULT_OPERATORS)
    operators[ast.Pow] = _power
    operators[ast.Mult] = _multiply
    operators[ast.LShift] = _shift
    evaluator = _Evaluator(
        operators=operators,
        functions={**BASE_FUNCTIONS, **(functions or {})},
        names=dict(names),
    )
    try:
        with own_budget_unless_shared(), warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)  # "1if x else 2": it would print unlocated
            return evaluator.eval(expression)
    except (UnknownTouched, ExpressionError):
        raise
    except Spent as exc:
        raise BudgetExceeded(exc) from None
    except SyntaxError as exc:
        raise ExpressionError(f"syntax error in expression: {exc.msg}") from None
    except simpleeval.NameNotDefined as exc:
        raise ExpressionError(f"unknown name {exc.name!r}") from None
    except simpleeval.FunctionNotDefined as exc:
        raise ExpressionError(f"unknown function {exc.func_name!r}") from None
    except simpleeval.InvalidExpression as exc:
        raise ExpressionError(str(exc)) from None
    except RecursionError:
        raise ExpressionError("expression is nested too deeply") from None
    except (MemoryError, OverflowError) as exc:
        raise ExpressionError(f"expression is too large to evaluate ({type(exc).__name__})") from None
    except (TypeError, ValueError, KeyError, IndexError, ZeroDivisionError, AttributeError) as exc:
        raise ExpressionError(f"{type(exc).__name__}: {exc}") from None


_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")


def format_message(
    template: str, names: Mapping[str, Any], functions: Mapping[str, Callable] | None = None
) -> str:
    """Fill `{expression}` placeholders; a placeholder that fails shows as `{?expr}`."""

    def fill(match: re.Match) -> str:
        try:
            value = evaluate(match.group(1), names, functions)
        except (ExpressionError, UnknownTouched):
            return "{?" + match.group(1) + "}"
        return str(value)

    return _PLACEHOLDER.sub(fill, template)


_ITERATION = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_]*)\s+in\s+(.+)$", re.DOTALL)


def parse_iteration(text: str) -> tuple[str, str]:
    """Split `name in expression`; raises ExpressionError."""
    match = _ITERATION.match(text)
    if not match:
        raise ExpressionError(f"'for' must read 'NAME in EXPRESSION', not {text!r}")
    return match.group(1), match.group(2).strip()


def game_functions(game: Game) -> dict[str, Callable[..., Any]]:
    """The functions a game's checks may call, bound to that game."""
    records = {card.id: card_record(card) for card in game.cards}
    table_rows = {
        table_id: [row_record(row, table_id) for row in table.rows] for table_id, table in game.tables.items()
    }

    def _select(type: str | None = None, **where: Any) -> list[Record]:
        charge(len(game.cards))
        if type is not None and type not in game.card_types:
            raise ExpressionError(f"no card type {type!r} (known: {', '.join(game.card_types)})")
        chosen = []
        for card in game.cards:
            if type is not None and card.type != type:
                continue
            if all(_matches(card.get(k), v) for k, v in where.items()):
                chosen.append(records[card.id])
        return chosen

    def cards(type: str | None = None, **where: Any) -> list[Record]:
        return _select(type, **where)

    def count(type: str | None = None, **where: Any) -> int:
        total = 0
        for record in _select(type, **where):
            n = record.item.count
            if isinstance(n, Unknown):
                raise UnknownTouched(n, f"{record.item.id}.count")
            total += n
        return total

    def card(card_id: str) -> Record:
        if card_id not in records:
            raise ExpressionError(f"no card {card_id!r}")
        return records[card_id]

    def table(name: str) -> list[Record]:
        if name not in table_rows:
            raise ExpressionError(f"no table {name!r} (known: {', '.join(table_rows)})")
        return table_rows[name]

    def row(name: str, key: Any) -> Record:
        found = game.tables[name].row(key) if name in game.tables else None
        if found is None:
            raise ExpressionError(f"table {name!r} has no row with key {key!r}")
        return row_record(found, name)

    return {"cards": cards, "count": count, "card": card, "table": table, "row": row}


def _matches(value: Any, wanted: Any) -> bool:
    if isinstance(value, Unknown):
        return False
    if isinstance(value, tuple):
        return wanted in value if not isinstance(wanted, list | tuple) else value == tuple(wanted)
    return value == wanted
