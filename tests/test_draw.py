"""Pictures: the SVG tree drawn by robomodel.tools.draw and the PNG pose drawn by
robomodel.tools.plot."""

from __future__ import annotations

import re
import shutil
import subprocess
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path

import icub_models
import pytest
from hypothesis import given
from strategies import models

import robomodel as rm
import robomodel.formats.urdf
from robomodel.data import example_path
from robomodel.errors import ArgumentError
from robomodel.tools.draw import tree_svg
from robomodel.transformers import reduce_model

SVG = "{http://www.w3.org/2000/svg}"


def texts(svg: str) -> list[str]:
    """The text of every <text> and <tspan> element (grouped frames are one <tspan> each)."""
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == f"{SVG}svg"
    return [t.text or "" for t in root.iter() if t.tag in (f"{SVG}text", f"{SVG}tspan")]


def test_bundled_model_tree_names_links_joints_frames_sensors() -> None:
    m = robomodel.formats.urdf.load(example_path())
    words = texts(tree_svg(m))
    for name in m.link_names:
        assert name in words
    root = ET.fromstring(tree_svg(m).encode("utf-8"))
    shown = {t.text: "".join(t.itertext()) for t in root.iter(f"{SVG}text")}
    for k, name in enumerate(m.joint_names):
        assert shown[name] == f"{name} #{k}"  # the name and the joint index


def test_many_frames_share_one_box() -> None:
    m = robomodel.formats.urdf.load(example_path())
    # base_link carries root_link, base_imu_acc and base_imu_gyro; add two more frames.
    m = rm.add_frame(rm.add_frame(m, "base_link", "extra_a"), "base_link", "extra_b")
    root = ET.fromstring(tree_svg(m).encode("utf-8"))
    counts = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "count"]
    assert "5 frames" in counts
    words = texts(tree_svg(m))
    for name in ("root_link", "base_imu_acc", "base_imu_gyro", "extra_a", "extra_b"):
        assert words.count(name) == 1
    for f in m.frames:
        assert f.name in words
    # Link sensors are boxes next to their link; F/T sensors are written on their joint.
    assert "acc base_imu_acc" in words and "gyro head_imu_gyro" in words
    assert "F/T l_leg_ft" in words
    # Joint type and axis in the child frame, as in the URDF (l_knee: axis 0 1 0, limits 0..2.3).
    assert "revolute  axis (0, 1, 0)  [0, 2.3]" in words


def test_icub_tree_parses() -> None:
    m = robomodel.formats.urdf.load(icub_models.get_model_file("iCubGazeboV2_5"))
    words = set(texts(tree_svg(m, frames=False)))
    assert set(m.link_names) <= words


def test_other_base_and_options() -> None:
    m = robomodel.formats.urdf.load(example_path())
    words = texts(tree_svg(m, base="l_foot", frames=False, sensors=False, title="legs"))
    assert words[0] == "legs"
    assert "l_sole" in texts(tree_svg(m, base="l_foot"))
    assert set(m.link_names) <= set(words)
    assert "l_sole" not in words and "F/T l_leg_ft" not in words


def test_without_the_legend_a_small_tree_is_narrow() -> None:
    """``legend=False`` leaves out the explaining line and only it: the same boxes and edges,
    in a picture as wide as the drawing and the title need (the legend line alone is wider)."""
    m = robomodel.formats.urdf.load(example_path())
    leg = ["l_hip_pitch", "l_hip_roll", "l_hip_yaw", "l_knee", "l_ankle_pitch", "l_ankle_roll"]
    small = reduce_model(m, keep_joints=leg, lumped_sensors="drop")
    with_legend = tree_svg(small, frames=False, sensors=False, title="leg")
    without = tree_svg(small, frames=False, sensors=False, title="leg", legend=False)
    width = re.compile(r'<svg [^>]*width="(\d+)"')
    assert int(width.search(without)[1]) < 600 < int(width.search(with_legend)[1])
    assert 'class="subtitle"' not in without

    def body(svg: str, *, drop: tuple[str, ...]) -> list[str]:
        # Everything but the picture's size (the <svg> element and its background).
        size = ("<svg ", '<rect x="0" y="0"', *drop)
        return [line for line in svg.splitlines() if not line.startswith(size)]

    assert body(without, drop=()) == body(with_legend, drop=('<text class="subtitle"',))


def test_empty_model_is_refused() -> None:
    with pytest.raises(rm.ModelError, match="empty"):
        tree_svg(rm.Model())


@given(models(max_links=8, max_frames=3))
def test_random_trees_draw_every_link_and_frame(m: rm.Model) -> None:
    """Every link and additional frame of any model appears as a text of a well-formed SVG."""
    words = texts(tree_svg(m))
    for name in m.link_names:
        assert name in words
    for f in m.frames:
        assert f.name in words


def test_plot_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from robomodel.tools.plot import save_pose

    m = robomodel.formats.urdf.load(example_path())
    out = save_pose(m, tmp_path / "pose.png", {"l_knee": 1.0}, base="l_foot")
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
    with pytest.raises(rm.ModelError, match="fixed"):
        save_pose(m, tmp_path / "x.png", {"l_leg_ft_joint": 1.0})


# --------------------------------------------------------------------------- pictures that scale

ICUB_27 = icub_models.get_model_file("iCubGazeboV2_7")


def size_of(svg: str) -> tuple[float, float]:
    root = ET.fromstring(svg.encode("utf-8"))
    w, h = float(root.get("width", "0")), float(root.get("height", "0"))
    # Drawn at its own size: the viewBox is the width and height, nothing is scaled.
    assert root.get("viewBox") == f"0 0 {w:.0f} {h:.0f}"
    assert not any(el.get("transform") for el in root.iter())
    return w, h


def font_sizes(svg: str) -> list[float]:
    """Every font size the SVG sets (in its style sheet or on an element), in px."""
    sizes = [float(v) for v in re.findall(r"font-size:\s*([\d.]+)px", svg)]
    sizes += [float(v) for v in re.findall(r'font-size="([\d.]+)', svg)]
    return sizes


def cards(svg: str) -> list[tuple[tuple[float, float, float, float], list[ET.Element]]]:
    """(rect x, y, width, height) of each card box and the texts drawn in it."""
    root = ET.fromstring(svg.encode("utf-8"))
    out = []
    for g in root.iter(f"{SVG}g"):
        if "card" not in (g.get("class") or ""):
            continue
        rect = g.find(f"{SVG}rect")
        assert rect is not None
        box = tuple(float(rect.get(k, "0")) for k in ("x", "y", "width", "height"))
        inside = [t for t in g.iter(f"{SVG}text") if float(t.get("y", "0")) > box[1]]
        out.append((box, inside))
    return out


def overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


@pytest.mark.parametrize("keep_fake_links", [False, True])
def test_a_humanoid_fits_in_three_to_one_with_legible_text(keep_fake_links: bool) -> None:
    options = robomodel.formats.urdf.LoadOptions(remove_fake_links=not keep_fake_links)
    with warnings.catch_warnings():
        # Kept as links, iCub's sensor frames share names with links: the loader says so.
        warnings.simplefilter("ignore", rm.RobomodelWarning)
        m = robomodel.formats.urdf.load(ICUB_27, options=options)
    svg = tree_svg(m)
    w, h = size_of(svg)
    assert max(w / h, h / w) <= 3.0, (w, h)
    # The old left-to-right strip was 7182 x 726 for a 58-link humanoid.
    assert min(font_sizes(svg)) >= 11.0
    boxes = cards(svg)
    assert len(boxes) == m.n_links
    for k, (a, _) in enumerate(boxes):
        for b, _ in boxes[k + 1 :]:
            assert not overlap(a, b), (a, b)


def test_text_stays_inside_its_box() -> None:
    """Each line in a card is narrower than the card, at 0.62 em per monospace character."""
    m = robomodel.formats.urdf.load(icub_models.get_model_file("iCubGazeboV2_5"))
    for box, lines in cards(tree_svg(m)):
        for t in lines:
            size = 13.0 if t.get("class") == "link" else 11.0
            x = float(t.get("x", "0"))
            assert box[0] <= x and box[1] <= float(t.get("y", "0")) <= box[1] + box[3]
            if t.get("class") != "mass":
                assert x + len("".join(t.itertext())) * 0.6 * size <= box[0] + box[2] + 1


def test_subtree_depth_and_collapse() -> None:
    m = robomodel.formats.urdf.load(icub_models.get_model_file("iCubGazeboV2_5"))
    trav = m.traversal()
    below: set[int] = {m.link_index("chest")}
    for el in trav:
        if el.parent in below:
            below.add(el.link)
    words = texts(tree_svg(m, subtree="chest", frames=False))
    assert {m.link_name(i) for i in below} <= set(words)
    assert not set(m.link_names) - {m.link_name(i) for i in below} & set(words)
    assert "torso_yaw" in words  # the joint into the top link is shown

    level = {trav.base: 0}
    for el in trav:
        if el.parent is not None:
            level[el.link] = level[el.parent] + 1
    shallow = texts(tree_svg(m, depth=2, frames=False))
    assert {n for n in m.link_names if level[m.link_index(n)] <= 2} <= set(shallow)
    assert not {n for n in m.link_names if level[m.link_index(n)] > 2} & set(shallow)
    deeper = [w for w in shallow if "more links below" in w or "more link below" in w]
    assert sum(int(w.split()[1]) for w in deeper) == sum(1 for v in level.values() if v > 2)

    fixed = {
        m.link_name(el.link)
        for el in trav
        if el.joint is not None and isinstance(m.joints[el.joint], rm.FixedJoint)
    }
    assert fixed
    collapsed = tree_svg(m, collapse="fixed", frames=False)
    assert len(cards(collapsed)) == m.n_links - len(fixed)
    merged = [w for w in texts(collapsed) if w.startswith("+ ")]
    assert {w.split()[1] for w in merged} == fixed
    assert "F/T l_leg_ft" in " ".join(merged)


def test_bad_drawing_options() -> None:
    m = robomodel.formats.urdf.load(example_path())
    with pytest.raises(rm.UnknownNameError):
        tree_svg(m, subtree="l_fot")
    with pytest.raises(rm.ModelError, match="depth"):
        tree_svg(m, depth=-1)
    with pytest.raises(ArgumentError, match="depth must be an int"):
        tree_svg(m, depth=1.5)  # type: ignore[arg-type]
    with pytest.raises(rm.ModelError, match="max_aspect"):
        tree_svg(m, max_aspect=1.0)


def test_a_wide_family_wraps() -> None:
    """A base with 60 children is wrapped onto rows instead of one 60-box strip."""
    m = rm.add_link(rm.Model(name="star"), "hub", rm.Link())
    for k in range(60):
        j = rm.RevoluteJoint(link1="hub", link2=f"spoke_{k}")
        m = rm.add_joint_and_link(m, "hub", f"joint_{k}", j, f"spoke_{k}", rm.Link())
    w, h = size_of(tree_svg(m))
    assert w / h <= 3.0
    w2, h2 = size_of(tree_svg(m, max_aspect=8.0))
    assert 3.0 < w2 / h2 <= 8.0


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _in_chromium(tmp_path: Path, svg: str, script: str) -> str:
    """Open ``svg`` at its own size in headless Chromium; return what ``script`` reports.

    The page shows the picture twice: as an ``<img>`` (whose natural size is the SVG's
    intrinsic size) and as an ``<object>`` whose document ``script`` measures. ``script`` runs
    on load with ``svg`` (the SVG root element) and ``pic`` (the image) in scope and returns a
    string, which the page stores in an attribute that ``--dump-dom`` prints.
    """
    browser = _chromium()
    if browser is None:
        pytest.skip("no Chromium (apt-get install chromium)")
    (tmp_path / "tree.svg").write_text(svg)
    page = tmp_path / "page.html"
    page.write_text(
        """<!doctype html><html><body style="margin:0">
<img id="pic" src="tree.svg"><object id="doc" data="tree.svg" type="image/svg+xml"></object>
<script>
window.addEventListener("load", () => {
  const svg = document.getElementById("doc").contentDocument.documentElement;
  const pic = document.getElementById("pic");
  const result = (() => {"""
        + script
        + """})();
  document.body.setAttribute("data-result", result);
});
</script></body></html>"""
    )
    p = subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--allow-file-access-from-files",
            "--no-first-run",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--virtual-time-budget=5000",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr[-2000:]
    found = re.search(r'data-result="([^"]*)"', p.stdout)
    assert found, p.stdout[-2000:]
    return found.group(1)


def test_large_tree_is_legible_in_headless_chromium(tmp_path: Path) -> None:
    """Chromium shows the iCub tree at its own size with no text under 11 px or outside a box."""
    result = _in_chromium(
        tmp_path,
        tree_svg(robomodel.formats.urdf.load(ICUB_27)),
        """
  let small = 0, outside = 0;
  for (const g of svg.querySelectorAll("g.card")) {
    const box = g.querySelector("rect").getBBox();
    for (const t of g.querySelectorAll("text")) {
      const size = parseFloat(getComputedStyle(t).fontSize);
      if (size < 11) small++;
      const b = t.getBBox();
      if (b.y >= box.y && b.x + b.width > box.x + box.width + 1) outside++;
    }
  }
  return [pic.naturalWidth, svg.width.baseVal.value, small, outside].join(" ");""",
    )
    natural, width, small, outside = (float(v) for v in result.split())
    assert natural == width and small == 0 and outside == 0


# What the browser measures on every <text>: its rendered font size (the computed size times
# the scale from SVG units to screen pixels) and its rendered box; then every pair of boxes
# that overlap by more than a tenth of the smaller one.
_LEGIBILITY = r"""
  const texts = [...svg.querySelectorAll("text")].filter(t => t.textContent.trim());
  const boxes = texts.map(t => t.getBoundingClientRect());
  let smallest = Infinity;
  for (const t of texts) {
    const m = t.getScreenCTM();
    const scale = Math.hypot(m.a, m.b);
    smallest = Math.min(smallest, parseFloat(getComputedStyle(t).fontSize) * scale);
  }
  let clashes = 0, worst = "";
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w <= 0 || h <= 0) continue;
      const small = Math.min(a.width * a.height, b.width * b.height);
      if (w * h > 0.1 * small) {
        clashes++;
        worst = texts[i].textContent.trim() + " / " + texts[j].textContent.trim();
      }
    }
  }
  return [pic.naturalWidth, pic.naturalHeight, texts.length, smallest, clashes].join(" ")
    + " " + worst.replace(/[^\w/ .#-]/g, "_");"""


@pytest.mark.parametrize(
    ("robot", "keep_fake_links"),
    [("iCubGazeboV2_7", False), ("iCubLisboa01", True)],
    ids=["iCubGazeboV2_7-frames-sensors", "iCubLisboa01-58-links"],
)
def test_large_trees_are_legible_at_their_own_size_in_chromium(
    tmp_path: Path, robot: str, keep_fake_links: bool
) -> None:
    """At its default size every label is >= 9 px, the picture is <= 4000 px wide and at most
    3:1, and no two labels cover each other."""
    options = robomodel.formats.urdf.LoadOptions(remove_fake_links=not keep_fake_links)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rm.RobomodelWarning)
        m = robomodel.formats.urdf.load(icub_models.get_model_file(robot), options=options)
    if keep_fake_links:
        assert m.n_links == 58  # the humanoid the issue measured as a 7182 x 726 strip
    svg = tree_svg(m, frames=True, sensors=True)
    result = _in_chromium(tmp_path, svg, _LEGIBILITY).split(" ", 5)
    width, height, n_texts, smallest, clashes = (float(v) for v in result[:5])
    assert n_texts >= m.n_links + m.n_joints
    assert 0 < width <= 4000 and max(width / height, height / width) <= 3.0, (width, height)
    assert smallest >= 9.0
    assert clashes == 0, result[5:]


def test_the_legibility_measure_sees_small_and_covered_text(tmp_path: Path) -> None:
    """The browser measure itself: a 6 px label and two labels on top of each other count."""
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100" viewBox="0 0 600 200">'
        '<text x="10" y="40" font-size="12">l_upper_leg</text>'
        '<text x="14" y="42" font-size="12">l_lower_leg</text>'
        '<text x="300" y="150" font-size="20">r_foot</text></svg>'
    )
    width, height, n_texts, smallest, clashes = (
        float(v) for v in _in_chromium(tmp_path, svg, _LEGIBILITY).split(" ")[:5]
    )
    assert (width, height, n_texts) == (300, 100, 3)
    assert smallest == pytest.approx(6.0)  # 12 px in a picture shown at half its size
    assert clashes == 1
