"""The HTML report in a real browser: headless Chromium loads it offline without
errors, every image decodes, and a screenshot is written.

Chromium is found on PATH as `chromium` or `chromium-browser` (Debian package
`chromium`, which `.ci/run` installs); without it the test skips and says how
to install it.

Method (robust across Chromium versions, which differ in how they log the
console in headless mode): a copy of the page gets a probe script as the
first thing in <head>. It records every error event (capture phase, so that
failed resource loads count as well as script errors) and every
console.error call; on `load` it writes the list, together with each
image's `complete && naturalWidth > 0`, into a data attribute that
`--dump-dom` prints. The original, unmodified page is screenshot separately
with console logging on, and any console message from it fails the test.
The screenshot goes to the test's temporary folder, and is also copied to
$CARDBALANCE_ARTIFACTS when that is set.
"""

import html
import json
import os
import re
import shutil
import subprocess

import pytest

from analysis.synthetic import write_synthetic_run
from reports import build_report
from reports.figures import FIGURES

INSTALL_HINT = ("headless Chromium is not on PATH (looked for 'chromium' and 'chromium-browser'); "
                "install it to run this check, e.g. `apt-get install -y chromium` on Debian "
                "(.ci/run does this)")
BROWSER_TIMEOUT_S = 90  # a cold Chromium start in a small container takes a few seconds
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--hide-scrollbars", "--mute-audio"]

PROBE = """<script>
window.__probeErrors = [];
window.addEventListener("error", function (event) {
  var target = event.target || {};
  window.__probeErrors.push(event.message || ("failed to load " + (target.tagName || "?") + " " +
                                              String(target.src || target.href || "").slice(0, 60)));
}, true);
(function () {
  var original = console.error;
  console.error = function () {
    window.__probeErrors.push("console.error: " + Array.prototype.join.call(arguments, " "));
    return original.apply(console, arguments);
  };
})();
window.addEventListener("load", function () {
  var images = Array.prototype.slice.call(document.images);
  document.documentElement.setAttribute("data-probe", JSON.stringify({
    images: images.length,
    broken: images.filter(function (i) { return !(i.complete && i.naturalWidth > 0); }).map(function (i) { return i.alt; }),
    errors: window.__probeErrors
  }));
});
</script>"""


def _chromium():
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _run_browser(binary, profile, *args):
    return subprocess.run([binary, *FLAGS, "--user-data-dir=%s" % profile, *args], capture_output=True, text=True,
                          timeout=BROWSER_TIMEOUT_S)


def _probe(binary, page, profile):
    """The probe's findings for `page` (a copy with the probe script inserted)."""
    text = page.read_text(encoding="utf-8")
    probed = page.with_name("probe-" + page.name)
    probed.write_text(text.replace("<head>", "<head>\n" + PROBE, 1), encoding="utf-8")
    result = _run_browser(binary, profile, "--virtual-time-budget=10000", "--dump-dom", probed.as_uri())
    match = re.search(r'data-probe="([^"]*)"', result.stdout)
    assert match, "the probe did not report (Chromium exit %d): %s" % (result.returncode, result.stderr[-2000:])
    return json.loads(html.unescape(match.group(1)))


@pytest.fixture(scope="module")
def chromium():
    binary = _chromium()
    if binary is None:
        pytest.skip(INSTALL_HINT)
    return binary


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("browser")
    cells = []
    for pairing, faction1 in (("red_vs_red", "red"), ("red_vs_blue", "blue")):
        for life in (10, 20, 30):
            for first in (0, 1):
                cells.append(dict(pairing=pairing, faction0="red", faction1=faction1, life0=life, life1=life,
                                  first=first, seat0_knockout=400 + 40 * first + life, seat0_exact=30,
                                  seat1_knockout=420 - 40 * first, seat1_exact=20, draw_turn_cap=5,
                                  lengths={5: 300, 9: 400, 14: 165 + life, 47: 10}, ct_attacks=3000))
    run = write_synthetic_run(folder / "run", cells, meta_updates={"name": "browser <check> & \"quotes\""})
    return build_report(run, out=folder / "report")


def test_report_loads_without_errors_and_every_image_decodes(chromium, report, tmp_path):
    findings = _probe(chromium, report, tmp_path / "profile-probe")
    assert findings["errors"] == []
    assert findings["images"] == len(FIGURES)
    assert findings["broken"] == []

    screenshot = tmp_path / "report.png"
    result = _run_browser(chromium, tmp_path / "profile-shot", "--window-size=1280,2400", "--enable-logging=stderr",
                          "--v=0", "--screenshot=%s" % screenshot, report.as_uri())
    assert result.returncode == 0, result.stderr[-2000:]
    console = [line for line in result.stderr.splitlines() if ":CONSOLE" in line]
    assert console == []
    assert screenshot.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert screenshot.stat().st_size > 10_000  # a blank page compresses far below this
    keep = os.environ.get("CARDBALANCE_ARTIFACTS")  # e.g. a CI artifact folder
    if keep:
        os.makedirs(keep, exist_ok=True)
        shutil.copy(screenshot, os.path.join(keep, "report-screenshot.png"))


def test_probe_detects_a_broken_image(chromium, report, tmp_path):
    # The check above can fail: corrupt one embedded image and the probe says so.
    broken = tmp_path / "broken.html"
    text = report.read_text(encoding="utf-8")
    broken.write_text(re.sub(r'src="data:image/png;base64,[^"]{40}', 'src="data:image/png;base64,AAAA', text, count=1),
                      encoding="utf-8")
    findings = _probe(chromium, broken, tmp_path / "profile")
    assert len(findings["broken"]) == 1 and findings["errors"]
