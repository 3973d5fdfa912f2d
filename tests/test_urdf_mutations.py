"""URDF mutation test by category (issue 15): DTDs, markup in comments and CDATA, huge numbers,
mimic graphs, negative values and inconsistent inertias under each inertia policy.

Property: every mutant of a valid URDF either raises :class:`~robomodel.errors.URDFError`, or
loads to a model that passes ``check_model``, holds only finite numbers and round-trips exactly
(``loads(dumps(m)) == m``). Some categories also fix the outcome: a DTD is always refused, markup
inside a comment or CDATA section always loads, an inconsistent inertia raises under
``inertia="raise"``, warns under ``"warn"`` and is silent under ``"ignore"``.

A loaded model passes ``check_model`` except, under ``inertia="warn"`` (with its warning) or
``"ignore"``, for the inertia check itself: such a model is a value robomodel carries (real
robots ship such links) but not a valid one (``validate`` exits 1 on it).
:func:`test_mutation_table` prints the counts per category (run with ``-s``).
"""

from __future__ import annotations

import collections
import math
import warnings
from collections.abc import Callable, Iterator

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree
from strategies import SLOW

import robomodel as rm
from robomodel.errors import RobomodelWarning, URDFError
from robomodel.formats.urdf import LoadOptions, dumps, loads

SEED = """<robot name="mutated">
  <link name="base"><inertial><origin xyz="0 0 0.1"/><mass value="2"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="l1"><inertial><origin xyz="0.1 0 0" rpy="0 0.3 0"/><mass value="1"/>
    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.025"/></inertial></link>
  <link name="l2"><inertial><mass value="0.5"/>
    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
    <visual><geometry><box size="0.1 0.1 0.1"/></geometry></visual></link>
  <link name="l3"><inertial><mass value="0.2"/>
    <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial></link>
  <link name="tool"/>
  <joint name="j1" type="revolute"><origin xyz="0 0 0.5"/><axis xyz="0 0 1"/>
    <parent link="base"/><child link="l1"/>
    <limit lower="-1" upper="1" effort="10" velocity="2"/><dynamics damping="0.1" friction="0"/>
  </joint>
  <joint name="j2" type="revolute"><origin xyz="0.2 0 0" rpy="0.1 0 0"/><axis xyz="0 1 0"/>
    <parent link="l1"/><child link="l2"/><limit lower="-2" upper="2" effort="5" velocity="1"/>
  </joint>
  <joint name="j3" type="prismatic"><origin xyz="0.1 0 0"/><axis xyz="1 0 0"/>
    <parent link="l2"/><child link="l3"/><limit lower="0" upper="0.1" effort="5" velocity="1"/>
  </joint>
  <joint name="jf" type="fixed"><origin xyz="0 0 0.05"/><parent link="l3"/><child link="tool"/>
  </joint>
  <gazebo reference="l1"><mu1>0.3</mu1></gazebo>
</robot>"""

POLICIES = ("raise", "warn", "ignore")


def _tree() -> etree._Element:
    return etree.fromstring(SEED)


def _text(root: etree._Element, prolog: str = "") -> str:
    return prolog + str(etree.tostring(root, encoding="unicode"))


# ---------------------------------------------------------------------------- categories
# Each category maps a Hypothesis draw to (document text, inertia policy, expectation), with the
# expectation one of "error" (must raise URDFError), "model" (must load), "warn" (must load with
# a RobomodelWarning) or "any" (either, by the general property).
Mutant = tuple[str, str, str]

_DTDS = [
    # Attribute defaults: a joint without a type would become revolute.
    ('<!DOCTYPE robot [<!ATTLIST joint type CDATA "revolute">]>', "drop_type"),
    ('<!DOCTYPE robot [<!ATTLIST limit effort CDATA "1">]>', "drop_effort"),
    ('<!DOCTYPE robot [<!ENTITY m "3">]>', "use_entity"),
    ('<!DOCTYPE robot [<!ENTITY m "3">]>', ""),
    ('<!DOCTYPE robot [<!ENTITY m SYSTEM "file:///etc/hostname">]>', "use_entity"),
    ('<!DOCTYPE robot SYSTEM "robot.dtd">', ""),
    ('<!DOCTYPE robot PUBLIC "-//X//DTD Y//EN" "http://example.com/robot.dtd">', ""),
    ("<!DOCTYPE robot>", ""),
    (
        '<!DOCTYPE robot [<!ENTITY a "1"><!ENTITY b "&a;&a;&a;&a;"><!ENTITY m "&b;&b;">]>',
        "use_entity",
    ),
    ('<!DOCTYPE robot [<!ELEMENT robot ANY><!ENTITY % p "x">]>', ""),
]


@st.composite
def dtds(draw: st.DrawFn) -> Mutant:
    dtd, change = draw(st.sampled_from(_DTDS))
    root = _tree()
    if change == "drop_type":
        del root.find("joint").attrib["type"]
    elif change == "drop_effort":
        del root.find("joint/limit").attrib["effort"]
    text = _text(root, dtd + "\n")
    if change == "use_entity":
        text = text.replace('<mass value="2"/>', '<mass value="&m;"/>')
    return text, "warn", "error"


_MARKUP = [
    '<!ENTITY x "y">',
    "<!DOCTYPE robot [<!ENTITY x 'y'>]>",
    '<!ATTLIST joint type CDATA "revolute">',
    '<joint name="ghost" type="revolute"/>',
    "&x; &amp; <link name='l1'/>",
    "<![CDATA[ nested ]]",
]


@st.composite
def markup_in_text(draw: st.DrawFn) -> Mutant:
    markup = draw(st.sampled_from(_MARKUP)).replace("--", "- -")  # "--" ends no comment
    root = _tree()
    where = draw(st.sampled_from(list(root.iter())))
    kind = draw(st.sampled_from(["comment", "cdata", "prolog_comment"]))
    if kind == "cdata":
        # CDATA only where text is allowed and kept: inside a kept extension element.
        host = root.find("gazebo/mu1") if draw(st.booleans()) else root.find("gazebo")
        tail = host.text or ""
        host.text = None
        body = markup.replace("]]>", "]] >")
        text = _text(root).replace(
            f"<{host.tag}>{tail}" if tail else f"<{host.tag}>",
            f"<{host.tag}><![CDATA[{body}]]>{tail}",
            1,
        )
        return text, "warn", "model"
    comment = etree.Comment(f" {markup} ")
    if kind == "prolog_comment":
        return f"<!-- {markup} -->\n" + _text(root), "warn", "model"
    where.insert(draw(st.integers(0, len(where))), comment)
    return _text(root), "warn", "model"


_HUGE = ["1e200", "-1e200", "1e308", "1.7e308", "-1.7e308", "1e154", "1e-300"]
_HUGE_SLOTS = [
    ("link/inertial/mass", "value", 1),
    ("link/inertial/origin", "xyz", 3),
    ("link/inertial/inertia", "ixx", 1),
    ("link/inertial/inertia", "ixy", 1),
    ("joint/origin", "xyz", 3),
    ("joint/axis", "xyz", 3),
    ("joint/limit", "upper", 1),
    ("joint/limit", "effort", 1),
    ("joint/dynamics", "damping", 1),
    ("link/visual/geometry/box", "size", 3),
]


@st.composite
def huge_numbers(draw: st.DrawFn) -> Mutant:
    root = _tree()
    for _ in range(draw(st.integers(1, 3))):
        path, attr, n = draw(st.sampled_from(_HUGE_SLOTS))
        el = draw(st.sampled_from(root.findall(path)))
        values = [draw(st.sampled_from([*_HUGE, "0", "1"])) for _ in range(n)]
        el.set(attr, " ".join(values))
    return _text(root), "warn", "any"


_MOVING = ["j1", "j2", "j3"]


@st.composite
def mimic_graphs(draw: st.DrawFn) -> Mutant:
    root = _tree()
    joints = {j.get("name"): j for j in root.findall("joint")}
    kind = draw(st.sampled_from(["unknown", "self", "fixed", "cycle", "chain", "valid"]))
    follower = draw(st.sampled_from(_MOVING))
    others = [j for j in _MOVING if j != follower]
    multiplier = draw(st.sampled_from(["1", "-2", "0.5", "1e200", "0"]))

    def mimic(who: str, leader: str) -> None:
        etree.SubElement(joints[who], "mimic", joint=leader, multiplier=multiplier, offset="0")

    expect = "error"
    if kind == "unknown":
        # Ignored with a warning naming the line, as Pinocchio and MuJoCo ignore it (issue 33);
        # an empty name is a malformed attribute.
        leader = draw(st.sampled_from(["nope", "", "l1", "base"]))
        mimic(follower, leader)
        expect = "any" if leader == "" else "model"
    elif kind == "self":
        mimic(follower, follower)
    elif kind == "fixed":
        mimic(follower, "jf")
    elif kind == "cycle":
        a, b = draw(st.permutations(_MOVING))[:2]
        mimic(a, b)
        mimic(b, a)
    elif kind == "chain":  # j_a follows j_b, which follows j_c
        a, b, c = draw(st.permutations(_MOVING))
        mimic(a, b)
        mimic(b, c)
        expect = "any"
    else:
        mimic(follower, draw(st.sampled_from(others)))
        expect = "model"
    if draw(st.booleans()):
        # A second <mimic> on a follower; or a mimic on the fixed joint itself.
        target = draw(st.sampled_from(["jf", follower]))
        etree.SubElement(joints[target], "mimic", joint=draw(st.sampled_from(others)))
        expect = "any"
    return _text(root), "warn", expect


_NEGATIVE = [
    ("joint/limit", "effort", "error"),
    ("joint/limit", "velocity", "error"),
    ("joint/dynamics", "damping", "error"),
    ("joint/dynamics", "friction", "any"),
    ("link/inertial/mass", "value", "error"),
    ("joint/limit", "lower", "any"),
    ("joint/limit", "upper", "any"),
]


@st.composite
def negative_values(draw: st.DrawFn) -> Mutant:
    root = _tree()
    path, attr, expect = draw(st.sampled_from(_NEGATIVE))
    el = draw(st.sampled_from(root.findall(path)))
    el.set(attr, draw(st.sampled_from(["-1", "-1e-300", "-0.5", "-1e200"])))
    if draw(st.booleans()):  # a limit dropping an optional attribute (not the negative one)
        limit = draw(st.sampled_from(root.findall("joint/limit")))
        dropped = draw(st.sampled_from(["effort", "velocity"]))
        if not (limit is el and dropped == attr):
            del limit.attrib[dropped]
    return _text(root), "warn", expect


_BAD_INERTIAS = [
    ("1", "0", "0", "1", "0", "3"),  # triangle: 1 + 1 < 3
    ("0.1", "0", "0", "0.1", "0", "-0.1"),  # a negative moment
    ("1", "2", "0", "1", "0", "1"),  # indefinite through a product
    ("0", "0", "0", "0", "0", "1"),  # a lone moment: 0 + 0 < 1
    ("-1", "0", "0", "-1", "0", "-1"),  # negative definite
]
_EDGE_INERTIAS = [
    ("0", "0", "0", "0", "0", "0"),  # a point mass
    ("1", "0", "0", "1", "0", "2"),  # a lamina: izz = ixx + iyy
    ("1", "0", "0", "1", "0", "0"),  # a rod along z
    ("0.333333", "0", "0", "0.666667", "0", "1"),  # a lamina rounded to 6 digits
]


@st.composite
def inertias(draw: st.DrawFn) -> Mutant:
    root = _tree()
    bad = draw(st.booleans())
    six = draw(st.sampled_from(_BAD_INERTIAS if bad else _EDGE_INERTIAS))
    el = draw(st.sampled_from(root.findall("link/inertial/inertia")))
    for attr, v in zip(("ixx", "ixy", "ixz", "iyy", "iyz", "izz"), six, strict=True):
        el.set(attr, v)
    policy = draw(st.sampled_from(POLICIES))
    expect = "model" if not bad or policy == "ignore" else "error" if policy == "raise" else policy
    return _text(root), policy, expect


CATEGORIES: dict[str, Callable[[], st.SearchStrategy[Mutant]]] = {
    "DTD": dtds,
    "comment/CDATA markup": markup_in_text,
    "huge numbers": huge_numbers,
    "mimic graph": mimic_graphs,
    "negative values": negative_values,
    "inertia policy": inertias,
}


# ------------------------------------------------------------------------------ the check
def _finite(m: rm.Model) -> bool:
    """Whether every number the model's links and joints hold is finite (limits may be inf)."""
    for link in m.links:
        i = link.inertia
        if not (
            math.isfinite(i.mass)
            and np.isfinite(i.first_moment).all()
            and np.isfinite(i.rotational_inertia).all()
        ):
            return False
    return all(
        np.isfinite(j.link1_H_link2.rotation).all() and np.isfinite(j.link1_H_link2.position).all()
        for j in m.joints
    )


def outcome(text: str, policy: str, expect: str) -> str:
    """Load ``text``; return "error" or "model", or fail the test."""
    options = LoadOptions(inertia=policy)  # type: ignore[arg-type]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RobomodelWarning)
        try:
            m = loads(text, options=options)
        except URDFError:
            assert expect in ("error", "any"), f"refused, expected {expect}:\n{text}"
            return "error"
    inertia_warnings = [w for w in caught if "physically inconsistent" in str(w.message)]
    assert expect != "error", f"loaded, expected a URDFError:\n{text}"
    if expect == "warn":
        assert inertia_warnings, "inconsistent inertia without a warning"
    if policy == "ignore":
        assert not inertia_warnings
    problems = m.problems()
    # The loader let an inconsistent inertia through (warned under "warn"): the value is then
    # not valid by the inertia check alone; anything else a loaded model fails is a bug.
    allowed = {"inertia"} if policy == "ignore" or inertia_warnings else set()
    assert {f.check for f in problems} <= allowed, [str(f) for f in problems]
    assert _finite(m), "a loaded model holds a non-finite number"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RobomodelWarning)
        again = loads(dumps(m), options=options)
    assert again == m, f"the round trip changes the model:\n{text}"
    assert list(again.joint_names) == list(m.joint_names)
    assert list(again.link_names) == list(m.link_names)
    return "model"


def _check(mutant: Mutant) -> None:
    outcome(*mutant)


@pytest.mark.parametrize("category", sorted(CATEGORIES))
@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=40, deadline=None)
@given(data=st.data())
def test_mutants_load_valid_or_raise_urdf_error(category: str, data: st.DataObject) -> None:
    """Every mutant of the category raises URDFError or loads valid, finite and round-trips."""
    _check(data.draw(CATEGORIES[category](), label=category))


@pytest.mark.slow
@pytest.mark.parametrize("category", sorted(CATEGORIES))
@SLOW
@given(data=st.data())
def test_mutants_slow(category: str, data: st.DataObject) -> None:
    """The category property with many more examples."""
    _check(data.draw(CATEGORIES[category](), label=category))


def test_markup_in_a_comment_loads_like_the_plain_file() -> None:
    """A comment or CDATA section holding DTD markup changes nothing (urdfdom loads it too)."""
    plain = loads(SEED)
    commented = SEED.replace('<link name="l3">', '<!-- <!ENTITY x "y"> --><link name="l3">')
    cdata = SEED.replace("<mu1>0.3</mu1>", '<mu1>0.3</mu1><![CDATA[<!ENTITY x "y">]]>')
    assert loads(commented) == plain
    assert loads(cdata).links == plain.links


# ------------------------------------------------------------------------------ the table
def _enumerate(category: str, n: int) -> Iterator[Mutant]:
    """``n`` mutants of the category, the same on every run (Hypothesis' database is off)."""
    found: list[Mutant] = []

    @settings(
        max_examples=n,
        database=None,
        derandomize=True,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(CATEGORIES[category]())
    def collect(mutant: Mutant) -> None:
        found.append(mutant)

    collect()
    yield from found


def tally(n: int) -> dict[str, collections.Counter[str]]:
    """Run ``n`` mutants per category; return the outcomes counted per category."""
    return {
        category: collections.Counter(
            outcome(*mutant) for mutant in dict.fromkeys(_enumerate(category, n))
        )
        for category in CATEGORIES
    }


def table(counts: dict[str, collections.Counter[str]]) -> str:
    """The counts as a text table (category, distinct inputs, errors, models)."""
    rows = [f"{'category':<22} {'inputs':>6} {'URDFError':>9} {'models':>6}"]
    for category, c in counts.items():
        rows.append(f"{category:<22} {sum(c.values()):>6} {c['error']:>9} {c['model']:>6}")
    return "\n".join(rows)


def test_mutation_table() -> None:
    """Every category produces both outcomes its cases allow; the table prints under ``-s``."""
    counts = tally(60)
    print("\n" + table(counts))
    assert counts["DTD"]["model"] == 0 and counts["DTD"]["error"] > 0
    assert counts["comment/CDATA markup"]["error"] == 0
    for category in ("mimic graph", "negative values", "inertia policy"):
        assert counts[category]["error"] > 0 and counts[category]["model"] > 0, category


def test_kept_elements_before_mimic_keep_their_order() -> None:
    """``loads(dumps(m)) == m`` for a joint holding an unknown element before ``<mimic>``."""
    text = SEED.replace(
        '<limit lower="-2" upper="2" effort="5" velocity="1"/>',
        '<limit lower="-2" upper="2" effort="5" velocity="1"/><foo/><mimic joint="j1"/>',
    )
    m = loads(text)
    assert loads(dumps(m)) == m
