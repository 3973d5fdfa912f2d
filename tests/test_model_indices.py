"""Index queries (iDynTree's isValid*Index) and the wording of index errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import models

import robomodel as rm
from robomodel.errors import ArgumentError


@given(m=models(max_links=6), i=st.integers(-3, 12))
def test_valid_index_queries_match_the_counts(m: rm.Model, i: int) -> None:
    assert m.is_valid_link_index(i) == (0 <= i < m.n_links)
    assert m.is_valid_joint_index(i) == (0 <= i < m.n_joints)
    assert m.is_valid_frame_index(i) == (0 <= i < m.n_links + len(m.frames))
    # A valid index is exactly one the by-index queries accept.
    for valid, query in (
        (m.is_valid_link_index(i), m.link_name),
        (m.is_valid_joint_index(i), m.joint_name),
        (m.is_valid_frame_index(i), m.frame_name),
    ):
        if valid:
            query(i)
        else:
            with pytest.raises(rm.UnknownNameError):
                query(i)


def test_numpy_integers_are_indices_and_other_types_are_refused() -> None:
    m = rm.add_link(rm.Model(), "a")
    assert m.is_valid_link_index(np.int64(0))
    for bad in (True, 0.0, "0", None):
        with pytest.raises(ArgumentError, match="a link index must be an int"):
            m.is_valid_link_index(bad)  # type: ignore[arg-type]


def test_index_errors_say_index_and_the_valid_range() -> None:
    m = rm.add_link(rm.add_link(rm.Model(), "a"), "b")
    m = rm.add_joint(m, "j", rm.FixedJoint(link1="a", link2="b"))
    with pytest.raises(rm.UnknownNameError) as e:
        m.link_name(99)
    assert str(e.value) == "the model has no link with index 99 (valid: 0 to 1)"
    assert isinstance(e.value, KeyError) and isinstance(e.value, IndexError)
    assert (e.value.kind, e.value.name) == ("link index", 99)
    with pytest.raises(IndexError, match=r"no joint with index -1 \(valid: 0\)$"):
        m.joint(-1)
    with pytest.raises(IndexError, match=r"no frame with index 2 \(valid: 0 to 1\)$"):
        m.frame_transform(2)
    with pytest.raises(IndexError, match=r"no link with index 0 \(it has no links\)$"):
        rm.Model().link(0)
    assert "named" not in str(e.value)
