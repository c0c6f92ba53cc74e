"""The compare gate's expression grammar (analysis/gate.py): parsing, errors, three-valued logic."""

import pytest

from analysis import gate
from analysis.gate import FALSE, TRUE, UNDECIDED, Comparison, GateSyntaxError, Interval, Junction
from sim.errors import CardbalanceError


def test_comparison_parses_into_field_operator_threshold():
    node = gate.parse("human_vs_alien@life50.winrate.delta > 0.02")
    assert node == Comparison(gate.Field("human_vs_alien@life50", "winrate", "delta"), ">", 0.02, "0.02")


def test_and_binds_tighter_than_or_and_parentheses_override():
    node = gate.parse("a.winrate.delta > 1 or b.draws.delta > 2 and c.turns.delta < -3")
    assert isinstance(node, Junction) and node.operator == "or"
    assert isinstance(node.parts[1], Junction) and node.parts[1].operator == "and"
    grouped = gate.parse("(a.winrate.delta > 1 or b.draws.delta > 2) AND c.turns.delta <= -3")
    assert grouped.operator == "and" and grouped.parts[0].operator == "or"


@pytest.mark.parametrize("text, value", [("2%", 0.02), ("-0.5", -0.5), ("+3", 3.0), ("1e-3", 0.001), (".25", 0.25)])
def test_numbers_with_sign_exponent_and_percent(text, value):
    assert gate.parse("all.draws.delta >= %s" % text).threshold == pytest.approx(value)


@pytest.mark.parametrize("text, named", [
    ("all.draws.delta >> 0.02", "'>'"),                      # doubled operator: the second '>' is named
    ("all.draws.delta > 0.02 and", "end of expression"),
    ("all.draws.delta > 0.02 0.03", "'0.03'"),
    ("all.draws.delta = 0.02", "'='"),                       # not an operator of the grammar
    ("all.draws.median > 1", "'median'"),                    # unknown stat
    ("draws.delta > 1", "'draws.delta'"),                    # field needs three parts
    ("__import__('os').system('true')", "column 12"),       # never evaluated as Python: the quote is refused
    ("(all.draws.delta > 1", "')'"),
    ("all.draws.delta > x.y.z", "'x.y.z'"),
    ("", "empty"),
])
def test_malformed_expression_is_a_usage_error_naming_the_token(text, named):
    with pytest.raises(GateSyntaxError) as error:
        gate.parse(text)
    assert named in str(error.value)
    assert isinstance(error.value, CardbalanceError)  # the CLI maps it to exit 2


def test_unknown_scope_or_metric_lists_the_allowed_ones():
    node = gate.parse("human_vs_robot.winrate.delta > 0.02")
    with pytest.raises(GateSyntaxError, match="unknown scope 'human_vs_robot'; allowed scopes: all, human_vs_alien"):
        gate.check_fields(node, "x", ["all", "human_vs_alien"], ["winrate"])
    node = gate.parse("all.winratio.delta > 0.02")
    with pytest.raises(GateSyntaxError, match="unknown metric 'winratio'; allowed metrics: winrate, draws"):
        gate.check_fields(node, "x", ["all"], ["winrate", "draws"])


# X > t fails when the whole interval is above t, passes when none of it is, else undecided;
# the other operators mirror it (boundaries follow the operator's strictness).
@pytest.mark.parametrize("operator, low, high, threshold, expected", [
    (">", 0.03, 0.05, 0.02, TRUE), (">", 0.00, 0.02, 0.02, FALSE), (">", 0.01, 0.03, 0.02, UNDECIDED),
    (">=", 0.02, 0.05, 0.02, TRUE), (">=", 0.00, 0.0199, 0.02, FALSE), (">=", 0.00, 0.02, 0.02, UNDECIDED),
    ("<", -0.05, -0.03, -0.02, TRUE), ("<", -0.02, 0.00, -0.02, FALSE), ("<", -0.03, 0.0, -0.02, UNDECIDED),
    ("<=", -0.05, -0.02, -0.02, TRUE), ("<=", -0.0199, 0.0, -0.02, FALSE), ("<=", -0.02, 0.0, -0.02, UNDECIDED),
])
def test_interval_comparison_is_three_valued(operator, low, high, threshold, expected):
    assert gate.compare_interval(Interval((low + high) / 2, low, high), operator, threshold) is expected


def test_and_or_follow_kleene_logic():
    intervals = {"t": Interval(1, 1, 1), "f": Interval(-1, -1, -1), "u": Interval(0, -1, 1)}

    def truth(text):
        return gate.evaluate(gate.parse(text), lambda field: intervals[field.scope])
    # "x.m.delta > 0": t is TRUE, f is FALSE, u is UNDECIDED
    assert truth("f.m.delta > 0 and u.m.delta > 0") is FALSE
    assert truth("t.m.delta > 0 and u.m.delta > 0") is UNDECIDED
    assert truth("t.m.delta > 0 and t.m.delta > 0") is TRUE
    assert truth("t.m.delta > 0 or u.m.delta > 0") is TRUE
    assert truth("f.m.delta > 0 or u.m.delta > 0") is UNDECIDED
    assert truth("f.m.delta > 0 or (f.m.delta > 0 and u.m.delta > 0)") is FALSE


def test_describe_names_field_value_interval_and_threshold():
    comparison = gate.parse("all.draws.delta > 2%")
    text = gate.describe(comparison, Interval(0.031, 0.025, 0.037))
    assert text.startswith("all.draws.delta = +0.031 (95 % CI +0.025 to +0.037) > 2%")
    assert text.endswith("shown")
