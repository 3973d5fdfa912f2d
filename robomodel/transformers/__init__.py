"""Model transformers: pure ``Model -> Model`` functions, composable with :func:`pipeline`.

Every transformer takes the model as its only positional argument and its options as keyword
arguments, returns a new model, and returns the input object itself when it has nothing to do.
Nothing is dropped silently: what a transformer cannot carry over raises, warns, or is an
explicit option. :func:`explain` runs any transformer (or pipeline) and also returns a
:class:`Report` of what it lumped, moved, renamed, added and dropped.
"""

from robomodel.transformers.attach import AttachMaps as AttachMaps
from robomodel.transformers.attach import IndexMaps as IndexMaps
from robomodel.transformers.attach import attach as attach
from robomodel.transformers.attach import index_maps as index_maps
from robomodel.transformers.change_base import change_base as change_base
from robomodel.transformers.engine import LumpedSensors as LumpedSensors
from robomodel.transformers.fake_links import fake_links as fake_links
from robomodel.transformers.fake_links import remove_fake_links as remove_fake_links
from robomodel.transformers.frames import URDF_AXIS_TOLERANCE as URDF_AXIS_TOLERANCE
from robomodel.transformers.frames import make_urdf_compatible as make_urdf_compatible
from robomodel.transformers.frames import remove_additional_frames as remove_additional_frames
from robomodel.transformers.pipeline import Pipeline as Pipeline
from robomodel.transformers.pipeline import Transformer as Transformer
from robomodel.transformers.pipeline import explain as explain
from robomodel.transformers.pipeline import pipeline as pipeline
from robomodel.transformers.reduce import reduce_model as reduce_model
from robomodel.transformers.rename import prefix as prefix
from robomodel.transformers.rename import rename as rename
from robomodel.transformers.reorder import normalize_joint_order as normalize_joint_order
from robomodel.transformers.reorder import reorder_like as reorder_like
from robomodel.transformers.reorder_joints import Permutation as Permutation
from robomodel.transformers.reorder_joints import reorder_joints as reorder_joints
from robomodel.transformers.report import Change as Change
from robomodel.transformers.report import Report as Report
from robomodel.transformers.shapes import name_solid_shapes as name_solid_shapes
from robomodel.transformers.submodel import extract_submodel as extract_submodel
from robomodel.transformers.submodel import submodel_traversals as submodel_traversals

__all__ = [
    "URDF_AXIS_TOLERANCE",
    "AttachMaps",
    "Change",
    "IndexMaps",
    "LumpedSensors",
    "Permutation",
    "Pipeline",
    "Report",
    "Transformer",
    "attach",
    "change_base",
    "explain",
    "extract_submodel",
    "fake_links",
    "index_maps",
    "make_urdf_compatible",
    "name_solid_shapes",
    "normalize_joint_order",
    "pipeline",
    "prefix",
    "reduce_model",
    "remove_additional_frames",
    "remove_fake_links",
    "rename",
    "reorder_joints",
    "reorder_like",
    "submodel_traversals",
]
