"""Views of models for people: differences, mechanism comparisons, drawings, plots, text views.

matplotlib (for :func:`save_pose` and :func:`pose_figure`) is imported only when a pose is
plotted.
"""

from robomodel.tools.compare import Discrepancy as Discrepancy
from robomodel.tools.compare import MechanismVerdict as MechanismVerdict
from robomodel.tools.compare import Tolerances as Tolerances
from robomodel.tools.compare import same_mechanism as same_mechanism
from robomodel.tools.diff import Difference as Difference
from robomodel.tools.diff import ModelDiff as ModelDiff
from robomodel.tools.diff import diff as diff
from robomodel.tools.draw import tree_svg as tree_svg
from robomodel.tools.plot import pose_figure as pose_figure
from robomodel.tools.plot import save_pose as save_pose
from robomodel.tools.textview import find_problems as find_problems
from robomodel.tools.textview import info_text as info_text
from robomodel.tools.textview import tree_lines as tree_lines

__all__ = [
    "Difference",
    "Discrepancy",
    "MechanismVerdict",
    "ModelDiff",
    "Tolerances",
    "diff",
    "find_problems",
    "info_text",
    "pose_figure",
    "same_mechanism",
    "save_pose",
    "tree_lines",
    "tree_svg",
]
