"""Compose transformers (:func:`pipeline`) and ask what they did (:func:`explain`)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeAlias

import attrs

from robomodel.errors import ModelError
from robomodel.model.record import Model
from robomodel.transformers.reorder_joints import reorder_joints
from robomodel.transformers.report import Change, Recorder, Report, collecting

__all__ = ["Pipeline", "Transformer", "explain", "pipeline"]

Transformer: TypeAlias = Callable[[Model], Model]
"""A pure function from a model to a model; bind options with :func:`functools.partial`."""


def _step_repr(step: Transformer) -> str:
    if isinstance(step, functools.partial):
        args = [repr(a) for a in step.args]
        args += [f"{k}={v!r}" for k, v in step.keywords.items()]
        return f"partial({_step_repr(step.func)}{''.join(', ' + a for a in args)})"
    return getattr(step, "__name__", None) or repr(step)


@attrs.frozen(repr=False)
class Pipeline:
    """Transformers applied in order: ``Pipeline((f, g))(m) == g(f(m))``.

    Build one with :func:`pipeline`. It is a frozen, hashable value, and itself a transformer.

    Attributes:
        steps: the transformers, in the order they run.
    """

    steps: tuple[Transformer, ...]

    def __call__(self, model: Model) -> Model:
        """Return ``model`` transformed by every step in turn."""
        for step in self.steps:
            model = step(model)
        return model

    def __repr__(self) -> str:
        return f"pipeline({', '.join(_step_repr(s) for s in self.steps)})"


def pipeline(*steps: Transformer) -> Pipeline:
    """Return the transformer that applies ``steps`` in order (nested pipelines are flattened).

    >>> from functools import partial
    >>> from robomodel.transformers import reduce_model, name_solid_shapes
    >>> p = pipeline(partial(reduce_model, keep_joints=["j1"]), name_solid_shapes)
    >>> p
    pipeline(partial(reduce_model, keep_joints=['j1']), name_solid_shapes)

    Raises:
        ModelError: a step is not callable.
    """
    flat: list[Transformer] = []
    for k, step in enumerate(steps):
        if isinstance(step, Pipeline):
            flat.extend(step.steps)
        elif callable(step):
            flat.append(step)
        else:
            raise ModelError(
                f"pipeline step {k} is {step!r}, not a transformer (a function Model -> Model); "
                "bind options with functools.partial"
            )
    return Pipeline(tuple(flat))


def explain(step: Transformer, model: Model) -> tuple[Model, Report]:
    """Run a transformer and return its result with a :class:`Report` of what it did.

    ``step`` is a robomodel transformer, a :func:`functools.partial` of one, or a
    :func:`pipeline` (whose report lists every step's changes in order). The model returned is
    exactly ``step(model)``. A step robomodel does not know (your own function) runs normally
    and its report says only that it ran (what the robomodel transformers it calls do is not
    reported; an ``explain`` inside it reports to its own caller).

    The transformers report through :func:`robomodel.transformers.report.record`; ``explain``
    collects those records for the duration of the call in a context variable, so calls in
    other threads or tasks are not mixed in.

    >>> import robomodel as rm
    >>> from functools import partial
    >>> from robomodel.transformers import reduce_model
    >>> m = rm.add_link(rm.Model(), "a")
    >>> m = rm.add_joint_and_link(m, "a", "j", rm.RevoluteJoint(link1="a", link2="b"), "b")
    >>> reduced, report = explain(partial(reduce_model, keep_joints=[]), m)
    >>> print(report)
    reduce_model: dropped joint 'j': lumped
    reduce_model: lumped link 'b': into 'a', kept as a frame
    """
    if isinstance(step, Pipeline):
        total = Report()
        for s in step.steps:
            model, r = explain(s, model)
            total = total + r
        return model, total
    func: Callable[..., object] = step
    args: tuple[object, ...] = ()
    kwargs: dict[str, object] = {}
    if isinstance(step, functools.partial):
        func, args, kwargs = step.func, step.args, dict(step.keywords)
    name = getattr(func, "__name__", repr(func))
    if _is_robomodel_transformer(func):
        rec = Recorder(name)
        with collecting(rec):
            # The model goes first and a partial's positional arguments after it, as in every
            # robomodel transformer's signature: partial(rename, {"a": "b"}) explains too.
            out = func(model, *args, **kwargs)
        if isinstance(out, Model):
            return out, rec.report()
        if func is reorder_joints and isinstance(out, tuple):  # (model, permutation)
            return out[0], rec.report()
        if isinstance(out, tuple) and out and isinstance(out[0], Model):
            return out, rec.report()  # type: ignore[return-value]  # attach(..., maps=True)
    else:
        # Your own function: what the robomodel transformers it calls do is not reported.
        with collecting(None):
            out = step(model)
    opaque = Report()
    if out is not model:
        opaque = Report(
            (
                Change(
                    step=name,
                    action="moved",
                    kind="model",
                    name=name,
                    detail="not a robomodel transformer: no details",
                ),
            )
        )
    return out, opaque  # type: ignore[return-value]  # whatever the step returned


def _is_robomodel_transformer(func: object) -> bool:
    # Every public function of robomodel.transformers reports through report.record(); any
    # other callable is run as an opaque step.
    module = getattr(func, "__module__", None) or ""
    return module.startswith("robomodel.transformers.")
