"""Direct tests that ``package://`` and ``model://`` mesh URIs stay inside the package directories.

The documented rule (``robomodel.formats.meshes``): ``..`` steps (also written ``%2e%2e``, or
reached through an encoded slash ``%2f``), absolute parts and symbolic links leading out are
*refused* (``MeshError.kind == "refused"``), whether or not the place they lead to exists, and even
when it is another package of the same directory. The oracle is the file system layout the test
builds.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import robomodel as rm
import robomodel.formats.urdf as ru
from robomodel.formats.meshes import MeshError, check_meshes, resolve_mesh
from robomodel.formats.urdf import URDFReferenceError


@pytest.fixture
def packages(tmp_path: Path) -> Path:
    """``pkgs/pkg/m.stl``, ``pkgs/other/o.stl``, ``secret.stl`` beside ``pkgs``, and in ``pkg``
    a file link and a directory link leading out, and one staying inside."""
    pkgs = tmp_path / "pkgs"
    (pkgs / "pkg" / "sub").mkdir(parents=True)
    (pkgs / "other").mkdir()
    (pkgs / "pkg" / "m.stl").write_text("m")
    (pkgs / "other" / "o.stl").write_text("o")
    (tmp_path / "secret.stl").write_text("s")
    (pkgs / "pkg" / "file_out.stl").symlink_to(tmp_path / "secret.stl")
    (pkgs / "pkg" / "dir_out").symlink_to(tmp_path, target_is_directory=True)
    (pkgs / "pkg" / "dangling_out.stl").symlink_to(tmp_path / "nothing.stl")
    (pkgs / "pkg" / "inside.stl").symlink_to(pkgs / "other" / "o.stl")
    return pkgs


_LEAVING = [
    "package://pkg/../../secret.stl",
    "package://pkg/../other/o.stl",  # stays in pkgs, but leaves its package: still refused
    "package://pkg/sub/../m.stl",
    "package://pkg/%2e%2e/%2e%2e/secret.stl",
    "package://pkg/%2E%2E/other/o.stl",
    "package://pkg/sub%2f..%2f..%2f..%2fsecret.stl",
    "package://pkg%2f..%2f..%2fsecret.stl",
    "package:///pkg/../../secret.stl",
    "model://pkg/../../secret.stl",
    "model://pkg/%2e%2e/other/o.stl",
    "package://..",
    "package://../secret.stl",
]


@pytest.mark.parametrize("uri", _LEAVING)
def test_dot_dot_steps_are_refused_in_every_spelling(packages: Path, uri: str) -> None:
    with pytest.raises(MeshError) as err:
        resolve_mesh(uri, package_dirs=[str(packages)])
    assert err.value.kind == "refused" and err.value.filename == uri


@pytest.mark.parametrize(
    "uri",
    [
        "package://pkg/file_out.stl",
        "package://pkg/dir_out/secret.stl",
        "model://pkg/dir_out/secret.stl",
        "package://pkg/dangling_out.stl",
    ],
)
def test_symbolic_links_leading_out_are_refused(packages: Path, uri: str) -> None:
    with pytest.raises(MeshError) as err:
        resolve_mesh(uri, package_dirs=[str(packages)])
    assert err.value.kind == "refused"


def test_links_inside_and_plain_files_resolve(packages: Path) -> None:
    dirs = [str(packages)]
    assert resolve_mesh("package://pkg/m.stl", package_dirs=dirs) == str(packages / "pkg" / "m.stl")
    assert resolve_mesh("package://pkg/inside.stl", package_dirs=dirs) == str(
        packages / "pkg" / "inside.stl"
    )
    # An encoded slash is a slash once decoded (documented: %XX escapes are decoded).
    assert resolve_mesh("package://pkg%2fm.stl", package_dirs=dirs) == str(
        packages / "pkg" / "m.stl"
    )


def test_a_later_directory_still_serves_what_an_earlier_one_leaks(
    packages: Path, tmp_path: Path
) -> None:
    """Directories are searched in turn: a link leading out of the first is skipped, and the
    second's real file wins."""
    second = tmp_path / "second"
    (second / "pkg").mkdir(parents=True)
    (second / "pkg" / "file_out.stl").write_text("real")
    got = resolve_mesh("package://pkg/file_out.stl", package_dirs=[str(packages), str(second)])
    assert got == str(second / "pkg" / "file_out.stl")


@pytest.mark.parametrize("uri", ["package://pkg/../../secret.stl", "package://pkg/file_out.stl"])
def test_urdf_resolve_uri_and_checks_refuse_too(packages: Path, tmp_path: Path, uri: str) -> None:
    """The URDF-side entry point and the mesh check follow the same rule."""
    with pytest.raises(URDFReferenceError):
        ru.resolve_uri([str(packages)], uri)
    urdf = tmp_path / "r.urdf"
    urdf.write_text(
        f'<robot name="r"><link name="a"><visual><geometry><mesh filename="{uri}"/></geometry>'
        "</visual></link></robot>"
    )
    model = rm.with_package_dirs(ru.load(urdf), [str(packages)])
    problems = check_meshes(model)
    assert len(problems) == 1 and problems[0].severity == "error"


@given(
    st.lists(
        st.sampled_from(["pkg", "sub", "..", "%2e%2e", "%2E%2e", ".", "m.stl"]),
        min_size=1,
        max_size=6,
    ),
    st.sampled_from(["/", "%2f", "%2F"]),
)
def test_any_path_with_a_dot_dot_segment_is_refused(parts: list[str], sep: str) -> None:
    """Property: after decoding, a URI path with a ``..`` segment is refused without looking at
    the disk; one without never is (it may be missing)."""
    uri = "package://" + sep.join(parts)
    decoded = "/".join(parts).replace("%2e", ".").replace("%2E", ".").split("/")
    here = os.path.dirname(__file__)
    try:
        resolve_mesh(uri, package_dirs=[here])
    except MeshError as e:
        kind = e.kind
    else:
        kind = "found"
    if ".." in decoded:
        assert kind == "refused", uri
    else:
        assert kind in ("missing", "found"), uri
