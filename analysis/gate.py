"""The compare gate's threshold expressions: tokenizer, parser, evaluation.

A designer writes `--fail-if 'all.win_rate.delta > 0.02'` (or a series scope); CI
fails when that statement is *shown* to hold. Expressions are parsed by a
small recursive-descent parser (never `eval`), so a typo is a usage error
that names the offending token and its column instead of arbitrary code.

Grammar (documented for designers in docs/ci-gate.md):

    expression  := disjunction END
    disjunction := conjunction ( "or" conjunction )*
    conjunction := primary ( "and" primary )*
    primary     := comparison | "(" disjunction ")"
    comparison  := FIELD OPERATOR NUMBER
    FIELD       := SCOPE "." METRIC "." STAT       e.g. all.win_rate.delta
    OPERATOR    := ">" | ">=" | "<" | "<="
    NUMBER      := ["+" | "-"] digits ["." digits] [exponent] ["%"]   ("2%" is 0.02)

Evaluation is three-valued because a field is an *interval*, not a number
(in `cardbalance compare` the interval is the estimate ± its group-sequential
bound, and each comparison is decided once: analysis/decisions.py):
for `X > t` the comparison is TRUE (the gate fails) when the interval's lower
bound is above t, FALSE (passes) when its upper bound is at most t, and
UNDECIDED otherwise; the other operators mirror this. `and` / `or` follow
Kleene's logic (FALSE and anything = FALSE, TRUE or anything = TRUE), so an
expression can be decided while one of its parts is still open. The trade-off:
an undecided gate is never read as passing; the caller keeps sampling or
reports it inconclusive.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Callable, Union

from sim.errors import CardbalanceError

OPERATORS = (">=", "<=", ">", "<")
MAX_NESTING = 50  # parentheses deep; far beyond any real gate, far below Python's recursion limit
STATS = ("delta", "abs_delta", "base", "tweak")

# One regex alternative per token kind, tried in this order at each position.
_TOKEN_PATTERNS = (
    ("SPACE", r"\s+"),
    ("NUMBER", r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?%?"),
    ("OPERATOR", r">=|<=|>|<"),
    ("LPAREN", r"\("),
    ("RPAREN", r"\)"),
    # Segments may carry '@', ':' and '-' (scopes like <series>@<axis>30-60).
    ("NAME", r"[A-Za-z_][A-Za-z0-9_@:\-]*(?:\.[A-Za-z_][A-Za-z0-9_@:\-]*)*"),
)
_TOKEN_RE = re.compile("|".join("(?P<%s>%s)" % pair for pair in _TOKEN_PATTERNS))
_KEYWORDS = ("and", "or")


@dataclass(frozen=True)
class Token:
    kind: str  # NUMBER OPERATOR LPAREN RPAREN NAME AND OR END
    text: str
    column: int  # 1-based, for error messages


@dataclass(frozen=True)
class Field:
    scope: str
    metric: str
    stat: str

    def __str__(self) -> str:
        return "%s.%s.%s" % (self.scope, self.metric, self.stat)


@dataclass(frozen=True)
class Comparison:
    field: Field
    operator: str
    threshold: float
    threshold_text: str


@dataclass(frozen=True)
class Junction:
    operator: str  # "and" | "or"
    parts: tuple


Node = Union[Comparison, Junction]


@dataclass(frozen=True)
class Interval:
    """What a field evaluates to: a point estimate and its confidence interval."""
    value: float
    low: float
    high: float


class GateSyntaxError(CardbalanceError):
    """A malformed --fail-if expression (a usage error: exit code 2)."""


def tokenize(text: str) -> list[Token]:
    tokens = []
    position = 0
    while position < len(text):
        match = _TOKEN_RE.match(text, position)
        if match is None:
            raise GateSyntaxError("gate expression %r: unexpected character %r at column %d; expected a field "
                                  "(scope.metric.stat), one of > >= < <=, a number, 'and', 'or' or parentheses."
                                  % (text, text[position], position + 1))
        kind = match.lastgroup
        if kind != "SPACE":
            word = match.group()
            if kind == "NAME" and word.lower() in _KEYWORDS:
                kind = word.upper()
            tokens.append(Token(kind, word, position + 1))
        position = match.end()
    tokens.append(Token("END", "", len(text) + 1))
    return tokens


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.tokens = tokenize(text)
        self.index = 0
        self.depth = 0

    def peek(self) -> Token:
        return self.tokens[self.index]

    def take(self) -> Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def fail(self, token: Token, expected: str):
        shown = "end of expression" if token.kind == "END" else "token '%s'" % token.text
        raise GateSyntaxError("gate expression %r: unexpected %s at column %d; expected %s."
                              % (self.text, shown, token.column, expected))

    def expression(self) -> Node:
        node = self.disjunction()
        if self.peek().kind != "END":
            self.fail(self.peek(), "'and', 'or' or the end of the expression")
        return node

    def disjunction(self) -> Node:
        parts = [self.conjunction()]
        while self.peek().kind == "OR":
            self.take()
            parts.append(self.conjunction())
        return parts[0] if len(parts) == 1 else Junction("or", tuple(parts))

    def conjunction(self) -> Node:
        parts = [self.primary()]
        while self.peek().kind == "AND":
            self.take()
            parts.append(self.primary())
        return parts[0] if len(parts) == 1 else Junction("and", tuple(parts))

    def primary(self) -> Node:
        token = self.peek()
        if token.kind == "LPAREN":
            self.take()
            self.depth += 1
            if self.depth > MAX_NESTING:
                raise GateSyntaxError("gate expression: parentheses nested more than %d deep at column %d; "
                                      "write a flatter expression." % (MAX_NESTING, token.column))
            node = self.disjunction()
            self.depth -= 1
            if self.peek().kind != "RPAREN":
                self.fail(self.peek(), "')'")
            self.take()
            return node
        if token.kind == "NAME":
            return self.comparison()
        self.fail(token, "a field such as all.win_rate.delta or '('")

    def comparison(self) -> Comparison:
        token = self.take()
        segments = token.text.split(".")
        if len(segments) != 3:
            raise GateSyntaxError("gate expression %r: field '%s' at column %d must have three parts, "
                                  "scope.metric.stat (e.g. all.draws.delta)." % (self.text, token.text, token.column))
        field = Field(*segments)
        if field.stat not in STATS:
            raise GateSyntaxError("gate expression %r: unknown stat '%s' in '%s'; allowed stats: %s."
                                  % (self.text, field.stat, token.text, ", ".join(STATS)))
        operator = self.peek()
        if operator.kind != "OPERATOR":
            self.fail(operator, "one of > >= < <= after '%s'" % token.text)
        self.take()
        number = self.peek()
        if number.kind != "NUMBER":
            self.fail(number, "a number after '%s'" % operator.text)
        self.take()
        text = number.text
        value = float(text[:-1]) / 100.0 if text.endswith("%") else float(text)
        if not math.isfinite(value):  # 1e999 parses as infinity: a threshold nothing can cross
            raise GateSyntaxError("gate expression: threshold '%s' at column %d is out of range; "
                                  "give a finite number such as 0.02 or 2%%." % (text, number.column))
        return Comparison(field, operator.text, value, text)


def parse(text: str) -> Node:
    """Parse one --fail-if expression; GateSyntaxError names the bad token."""
    if not text or not text.strip():
        raise GateSyntaxError("gate expression is empty; write e.g. 'all.win_rate.delta > 0.02'.")
    return _Parser(text).expression()


def comparisons(node: Node) -> list[Comparison]:
    """The comparisons of an expression, left to right."""
    if isinstance(node, Comparison):
        return [node]
    return [c for part in node.parts for c in comparisons(part)]


def check_fields(node: Node, text: str, scopes, metrics) -> None:
    """Reject fields whose scope or metric the comparison does not have (exit 2)."""
    for comparison in comparisons(node):
        field = comparison.field
        if field.scope not in scopes:
            raise GateSyntaxError("gate expression %r: unknown scope '%s'; allowed scopes: %s."
                                  % (text, field.scope, ", ".join(scopes)))
        if field.metric not in metrics:
            raise GateSyntaxError("gate expression %r: unknown metric '%s'; allowed metrics: %s."
                                  % (text, field.metric, ", ".join(metrics)))


# ---- evaluation ---------------------------------------------------------------

TRUE, FALSE, UNDECIDED = True, False, None


def compare_interval(interval: Interval, operator: str, threshold: float):
    """TRUE if the whole interval satisfies `X op threshold`, FALSE if none of it does."""
    low, high = interval.low, interval.high
    if operator == ">":
        return TRUE if low > threshold else FALSE if high <= threshold else UNDECIDED
    if operator == ">=":
        return TRUE if low >= threshold else FALSE if high < threshold else UNDECIDED
    if operator == "<":
        return TRUE if high < threshold else FALSE if low >= threshold else UNDECIDED
    if operator == "<=":
        return TRUE if high <= threshold else FALSE if low > threshold else UNDECIDED
    raise ValueError(operator)


def evaluate(node: Node, lookup: Callable[[Field], Interval]):
    """Three-valued truth of an expression (TRUE = the gate fails), each comparison read
    from the interval `lookup` gives its field."""
    return combine(node, lambda c: compare_interval(lookup(c.field), c.operator, c.threshold))


def combine(node: Node, truth: Callable[[Comparison], object]):
    """Kleene's three-valued `and` / `or` over the truths `truth` gives each comparison."""
    if isinstance(node, Comparison):
        return truth(node)
    values = [combine(part, truth) for part in node.parts]
    if node.operator == "and":
        if any(v is FALSE for v in values):
            return FALSE
        return TRUE if all(v is TRUE for v in values) else UNDECIDED
    if any(v is TRUE for v in values):
        return TRUE
    return FALSE if all(v is FALSE for v in values) else UNDECIDED


def verdict_word(value) -> str:
    return {TRUE: "fail", FALSE: "pass", UNDECIDED: "inconclusive"}[value]


def describe(comparison: Comparison, interval: Interval, confidence: float = 0.95) -> str:
    """One line naming the field, its value and interval, and the threshold."""
    outcome = compare_interval(interval, comparison.operator, comparison.threshold)
    relation = {TRUE: "shown", FALSE: "ruled out", UNDECIDED: "not decided"}[outcome]
    return "%s = %s (%g %% CI %s to %s) %s %s: %s" % (
        comparison.field, _number(interval.value), confidence * 100, _number(interval.low), _number(interval.high),
        comparison.operator, comparison.threshold_text, relation)


def _number(value: float) -> str:
    return "%+.4g" % value if abs(value) < 1e4 else "%+.6g" % value
