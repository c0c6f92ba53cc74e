"""The report figures of both arms of a comparison, side by side.

The paired kernel keeps only paired sums, which are too little for the
sweep report's figures (win types by seat, length histograms, counters).
So each arm is replayed with the game's `play_batch` over exactly the same
matches as the comparison (same root seed, cells, rounds and batch sizes,
hence the same match seeds), stored as an ordinary run folder
(`DIR/base-run`, `DIR/tweak-run`, written with the sweep's run-folder
helpers), and drawn by the report engineer's `reports.figures`. Reports keep
reading stored runs; the price is playing every match once more per arm,
which is why figures are opt-in (`--figures DIR`).
"""

from __future__ import annotations

import os
from pathlib import Path

from joblib import Parallel, delayed

from sim import aggregate as agg
from sim.sweep.grid import build_plan, parse_sweep
from sim.sweep.seeds import chunk_seed


def _play(play_batch, rules_array, cell_array, seed, n_matches):
    return play_batch(rules_array, cell_array, seed, 0, n_matches)


def write_arm_run(result, arm, folder, n_jobs: int = 1) -> Path:
    """Replay one arm's matches of `result` into a run folder; returns the folder."""
    from sim.sweep import runfolder

    setup = result.setup
    game = setup.game
    grid = {**setup.grid, "seed": setup.seed, "rules": [arm.source], "matches": result.matches_per_cell,
            "chunk_size": setup.batch}
    life = getattr(arm.rules, "life", None) if setup.life_from_rules else None
    if life is not None:  # built-in grid: this arm starts at its own rules' life
        life0, life1 = (life, life) if isinstance(life, int) else life
        grid.update(life=[life0] if life0 == life1 else [], life_pairs=[] if life0 == life1 else [[life0, life1]])
    plan = build_plan(parse_sweep(grid, "compare grid"), game)
    plan.rules = {arm.source: arm.rules}
    rules_array = arm.rules.to_array()
    n_end, n_counters = len(game.end_types), len(game.counter_names)
    sizes = [min(setup.batch, result.matches_per_cell - k * setup.batch) for k in range(result.rounds)]
    tasks = [(cell.cell, chunk, size) for cell in plan.cells for chunk, size in enumerate(sizes)]
    from sim.worker_lifetime import loky_config
    with loky_config():  # workers exit with this process
        vectors = Parallel(n_jobs=n_jobs)(
            delayed(_play)(game.play_batch, rules_array, plan.cell_array(plan.cells[cell]),
                           chunk_seed(setup.seed, cell, chunk), size) for cell, chunk, size in tasks)
    totals = {cell.cell: agg.empty_aggregate(n_end, n_counters, game.length_bins) for cell in plan.cells}
    for (cell, _, _), vector in zip(tasks, vectors):
        totals[cell] += vector
    results, lengths = runfolder.result_tables(plan, totals, {cell.cell: len(sizes) for cell in plan.cells})
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    meta = runfolder.build_meta(plan, "loky", n_jobs)
    meta.update(complete=True, counts={"cells": len(plan.cells), "matches": int(results["matches"].sum()),
                                       "chunks": len(tasks)},
                compare={"arm": arm.source, "note": "replayed by cardbalance compare --figures"})
    runfolder.write_parquet_atomic(folder / runfolder.RESULTS, results)
    runfolder.write_parquet_atomic(folder / runfolder.LENGTHS, lengths)
    runfolder.write_json_atomic(folder / runfolder.META, meta)
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


def write_side_by_side(result, folder, relative_to=None, n_jobs: int = 1) -> dict[str, tuple[str, str]]:
    """Figures of both arms under `folder`/{base,tweak}/ and, joined into one image per
    figure, under `folder`/side_by_side/; returns {figure: (base path, tweak path)}.

    Paths are relative to the folder of `relative_to` (the Markdown file) when
    given, so the summary's image links work next to it.
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
        run_folder = write_arm_run(result, arm, folder / ("%s-run" % label), n_jobs)
        written[label] = figures.write_figures(tables.all_tables(load_run(run_folder)), folder / label)
    for name in written["base"]:
        if name in written["tweak"]:
            _side_by_side(written["base"][name], written["tweak"][name], folder / "side_by_side" / (name + ".png"))
    anchor = Path(relative_to).resolve().parent if relative_to else None

    def shown(path: Path) -> str:
        return os.path.relpath(Path(path).resolve(), anchor) if anchor else str(path)

    return {name: (shown(written["base"][name]), shown(written["tweak"][name]))
            for name in written["base"] if name in written["tweak"]}
