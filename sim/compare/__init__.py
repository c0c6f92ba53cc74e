"""`cardbalance compare`: two rule sets on one grid, common random numbers, a CI gate.

- `runner`: checks a comparison (`prepare`), plays it in rounds with
  sequential stopping (`run`), and its JSON form (`result_json`).
- `baseline`: the committed snapshot of BASE's metrics (`write_baseline`,
  `load_baseline`).

Statistics live in `analysis/paired.py`, the gate grammar in
`analysis/gate.py`, the Markdown summary in `reports/compare_md.py`.
"""

from sim.compare.baseline import Baseline, load_baseline, write_baseline
from sim.compare.runner import CompareResult, CompareSetup, prepare, result_json, run

__all__ = ["Baseline", "CompareResult", "CompareSetup", "load_baseline", "prepare", "result_json", "run",
           "write_baseline"]
