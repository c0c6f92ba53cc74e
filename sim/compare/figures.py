"""The report figures of both arms of a comparison, side by side.

The paired kernel keeps only paired sums, which are too little for the
sweep report's figures (win types by seat, length histograms, counters).
So each arm is played again by the sweep runner (the one executor) over
exactly the same matches as the comparison (same root seed, cells, rounds
and batch sizes, hence the same match seeds), stored as an ordinary run
folder (`DIR/base-run`, `DIR/tweak-run`), and drawn from that stored run by
`reports.figures`. A later `--figures` into the same folder for the same
comparison reads the stored chunks instead of playing them again; the first
costs every match once more per arm, which is why figures are opt-in
(`--figures DIR`).
"""

from __future__ import annotations

import os
from pathlib import Path

from sim.sweep.grid import build_plan, parse_sweep
from sim.sweep.runner import run_sweep


def write_arm_run(result, arm, folder, n_jobs: int = 1, progress: str = "quiet", label: str = "compare") -> Path:
    """Replay one arm's matches of `result` into a run folder; returns the folder. `progress`: the sweep's
    progress mode (sim/sweep/progress.py) on stderr, each line starting with `label`."""
    from sim.sweep import runfolder

    setup = result.setup
    game = setup.game
    grid = {**setup.grid, "seed": setup.seed, "rules": [arm.source], "matches": result.matches_per_cell,
            "chunk_size": setup.batch, "precision": None}
    plan = build_plan(parse_sweep(grid, "compare grid"), game)
    plan.rules = {arm.source: arm.rules}
    folder = Path(folder)
    meta = runfolder.build_meta(plan, "loky", n_jobs)
    # Which matches this folder stores: a folder of the same arm, grid, seed and
    # batch is continued (its stored chunks are read, not replayed).
    identity = {"arm": arm.source, "hash": arm.rules.stable_hash(), "seed": setup.seed, "batch": setup.batch,
                "cells": meta["cells"]}
    meta["compare"] = {**identity, "note": "one arm's matches of cardbalance compare --figures, as a run"}
    stored = folder / runfolder.META
    resume = False
    if stored.is_file():
        try:
            previous = runfolder.load_meta(folder).get("compare", {})
        except Exception:  # not a readable run: start it again
            previous = {}
        resume = {key: previous.get(key) for key in identity} == identity
    if not resume:
        for chunk in (folder / runfolder.CHUNKS).glob("c*-k*.npy"):
            chunk.unlink()  # chunks of another comparison
        (folder / runfolder.CHUNKS).mkdir(parents=True, exist_ok=True)
        runfolder.write_json_atomic(stored, meta)
    run_sweep(plan, folder, jobs=n_jobs, progress=progress, resume=resume, progress_label=label)
    return folder


def _side_by_side(left: Path, right: Path, out: Path) -> None:
    """One PNG: BASE's figure on the left, TWEAK's on the right, titled, on white."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.image as mpimg
    import matplotlib.pyplot as plt

    images = [mpimg.imread(left), mpimg.imread(right)]
    height = max(image.shape[0] for image in images)
    width = sum(image.shape[1] for image in images)
    dpi = 100
    figure, axes = plt.subplots(1, 2, figsize=(width / dpi, (height + 40) / dpi), dpi=dpi,
                                gridspec_kw={"width_ratios": [image.shape[1] for image in images]})
    for axis, image, title in zip(axes, images, ("BASE", "TWEAK")):
        axis.imshow(image)
        axis.set_title(title, fontsize=14, fontweight="bold")
        axis.axis("off")
    figure.subplots_adjust(left=0, right=1, bottom=0, top=1 - 40 / (height + 40), wspace=0.02)
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out, dpi=dpi)
    plt.close(figure)


def write_side_by_side(result, folder, relative_to=None, n_jobs: int = 1,
                       progress: str = "quiet") -> dict[str, tuple[str, str]]:
    """Figures of both arms under `folder`/{base,tweak}/ and, joined into one image per
    figure, under `folder`/side_by_side/; returns {figure: (base path, tweak path)}.

    Paths are relative to the folder of `relative_to` (the Markdown file) when
    given, so the summary's image links work next to it. `progress` ("auto" from the command
    without --quiet): each arm's replay prints the sweep's progress line on stderr (issue 38
    item 9: the replay, every match once more per arm, was silent).
    """
    from analysis import load_run, tables
    from reports import figures

    setup = result.setup
    if setup.base is None or setup.tweak is None:
        from sim.errors import CardbalanceError
        raise CardbalanceError("--figures needs both BASE and TWEAK rules to be played (not --baseline).")
    folder = Path(folder)
    written = {}
    for label, arm in (("base", setup.base), ("tweak", setup.tweak)):
        run_folder = write_arm_run(result, arm, folder / ("%s-run" % label), n_jobs, progress,
                                   "compare figures, %s replay" % label)
        written[label] = figures.write_figures(tables.all_tables(load_run(run_folder)), folder / label)
    for name in written["base"]:
        if name in written["tweak"]:
            _side_by_side(written["base"][name], written["tweak"][name], folder / "side_by_side" / (name + ".png"))
    anchor = Path(relative_to).resolve().parent if relative_to else None

    def shown(path: Path) -> str:
        return os.path.relpath(Path(path).resolve(), anchor) if anchor else str(path)

    return {name: (shown(written["base"][name]), shown(written["tweak"][name]))
            for name in written["base"] if name in written["tweak"]}
