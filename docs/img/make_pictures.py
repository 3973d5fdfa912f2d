"""Regenerate the pictures of the docs from the bundled model: ``python docs/img/make_pictures.py``.

Each transformer page shows the kinematic tree before and after the transformer, drawn by
:func:`robomodel.tools.draw.tree_svg`. Run this again after changing a transformer or the drawing.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import robomodel.formats.urdf
from robomodel.data import example_path
from robomodel.tools.draw import tree_svg
from robomodel.transformers import (
    make_urdf_compatible,
    normalize_joint_order,
    reduce_model,
    remove_fake_links,
)
from robomodel.transformers.change_base import change_base

HERE = Path(__file__).resolve().parent
LEGS = [
    f"{s}_{j}"
    for s in ("l", "r")
    for j in ("hip_pitch", "hip_roll", "hip_yaw", "knee", "ankle_pitch", "ankle_roll")
]


def main() -> None:
    """Write every picture next to this script."""
    raw = robomodel.formats.urdf.load(
        example_path(), options=robomodel.formats.urdf.LoadOptions(remove_fake_links=False)
    )
    model = robomodel.formats.urdf.load(example_path())
    legs = reduce_model(
        model, keep_joints=[*LEGS, "l_leg_ft_joint", "r_leg_ft_joint"], lumped_sensors="drop"
    )
    pictures = {
        "example-tree": (model, "the bundled model, as loaded (fake links are frames)"),
        "example-raw": (
            raw,
            "the bundled model with every URDF link kept (remove_fake_links=False)",
        ),
        "example-no-fake-links": (remove_fake_links(raw), "after remove_fake_links"),
        "example-legs": (legs, "after reduce_model to the leg joints and leg F/T joints"),
        "example-legs-normalized": (
            partial(normalize_joint_order, base_link="l_foot")(legs),
            "after normalize_joint_order(base_link='l_foot'): joint numbers from the left foot",
        ),
        "example-legs-urdf-compatible": (
            make_urdf_compatible(legs, base_link="l_foot"),
            "after make_urdf_compatible(base_link='l_foot')",
        ),
        "example-from-l_foot": (change_base(model, "l_foot"), "after change_base(model, 'l_foot')"),
    }
    for name, (m, title) in pictures.items():
        (HERE / f"{name}.svg").write_text(tree_svg(m, title=title), encoding="utf-8")
        print(f"wrote docs/img/{name}.svg")
    # The home page's picture: the legs of its example, without frames, sensors and the legend
    # line (the page explains the drawing), so that it is narrow enough to be read at the
    # page's width.
    home = tree_svg(
        reduce_model(model, keep_joints=LEGS, lumped_sensors="drop"),
        frames=False,
        sensors=False,
        legend=False,
        title="legs = reduce_model(model, keep_joints=legs)",
    )
    (HERE / "home-legs.svg").write_text(home, encoding="utf-8")
    print("wrote docs/img/home-legs.svg")


if __name__ == "__main__":
    main()
