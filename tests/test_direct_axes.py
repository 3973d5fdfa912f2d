"""Direct tests of the sense of rotations and translations about an axis.

Right-hand rule: a positive rotation about +z takes +x to +y, +y to -x; a positive translation
moves along +direction. Checked on ``Axis`` itself and on the joints built from it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import robomodel as rm

X, Y, Z = np.eye(3)


def _apply(T: rm.Transform, p: np.ndarray) -> np.ndarray:
    return np.asarray(T.rotation @ p + T.position)


@pytest.mark.parametrize(
    ("axis", "before", "after"),
    [(Z, X, Y), (Z, Y, -X), (X, Y, Z), (Y, Z, X), (-Z, X, -Y)],
    ids=["z: x->y", "z: y->-x", "x: y->z", "y: z->x", "-z: x->-y"],
)
def test_axis_rotation_by_a_quarter_turn_follows_the_right_hand_rule(
    axis: np.ndarray, before: np.ndarray, after: np.ndarray
) -> None:
    T = rm.Axis(axis).rotation(math.pi / 2)
    np.testing.assert_allclose(T.rotation @ before, after, atol=1e-15)
    np.testing.assert_allclose(T.position, 0.0, atol=0)


def test_axis_rotation_about_an_offset_line_keeps_the_line_fixed() -> None:
    """About the vertical line through (1, 2, 0): its points stay, (2, 2, 0) goes to (1, 3, 0)."""
    T = rm.Axis(Z, (1.0, 2.0, 0.0)).rotation(math.pi / 2)
    np.testing.assert_allclose(_apply(T, np.array([1.0, 2.0, 5.0])), [1.0, 2.0, 5.0], atol=1e-15)
    np.testing.assert_allclose(_apply(T, np.array([2.0, 2.0, 0.0])), [1.0, 3.0, 0.0], atol=1e-15)


def test_axis_translation_moves_along_plus_direction() -> None:
    T = rm.Axis((0.0, 3.0, 4.0), (7.0, 7.0, 7.0)).translation(2.0)  # direction (0, 0.6, 0.8)
    np.testing.assert_allclose(T.rotation, np.eye(3), atol=0)
    np.testing.assert_allclose(T.position, [0.0, 1.2, 1.6], atol=1e-15)
    np.testing.assert_allclose(rm.Axis(-X).translation(0.5).position, [-0.5, 0.0, 0.0], atol=0)


def test_revolute_joint_turns_link2_positively_about_its_axis() -> None:
    """link1_H_link2(pi/2) of a joint about z at rest in place: link2's x axis is link1's y."""
    j = rm.RevoluteJoint(link1="a", link2="b", axis_in_link1=rm.Axis(Z))
    H = j.transform(math.pi / 2, "a", "b")
    np.testing.assert_allclose(H.rotation @ X, Y, atol=1e-15)
    np.testing.assert_allclose(j.transform(math.pi / 2, "b", "a").rotation @ Y, X, atol=1e-15)


def test_prismatic_joint_moves_link2_along_plus_axis() -> None:
    """link2's origin, at (1, 0, 0) of link1 at rest, moves to (1, 0.25, 0) at q = 0.25."""
    rest = rm.Transform.from_translation((1.0, 0.0, 0.0))
    j = rm.PrismaticJoint(link1="a", link2="b", link1_H_link2=rest, axis_in_link1=rm.Axis(Y))
    np.testing.assert_allclose(j.transform(0.25, "a", "b").position, [1.0, 0.25, 0.0], atol=0)
    np.testing.assert_allclose(j.transform(-0.25, "a", "b").position, [1.0, -0.25, 0.0], atol=0)
