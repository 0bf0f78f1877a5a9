"""Issue 34's scale requirement, measured in the browser: with 1,000 runs of 10,000 log entries each,
the run table and a chart of 10 selected runs render in under one second.

The runs are written as LogReport's ``log`` and ``save_args``' ``args`` files (6 to 11 s) and crawled into
the store once before the page opens (what a server's first look at them does; 24 to 46 s on two shared
cores), so the test takes about a minute and 1 GB of temporary files: marked slow.
"""
import json
import statistics
import time

import numpy
import pytest

from kusari.ui import crawler, store

pytest.importorskip("playwright.sync_api", reason="the browser tests need pip install playwright")
from playwright.sync_api import expect  # noqa: E402

RUNS, ENTRIES, SELECTED = 1_000, 10_000, 10
BUDGET_MS = 1_000
LOADS, REFRESHES = 3, 3


def _generate(project) -> None:
    """RUNS run folders, each a log of ENTRIES entries (a decaying noisy loss) and its arguments;
    one formatting template for every log, filled with a run's losses in one call."""
    iterations = numpy.arange(1, ENTRIES + 1)
    template = "[" + ", ".join('{"iteration": %d, "main/loss": %%.5f}' % i for i in iterations.tolist()) + "]"
    rng = numpy.random.default_rng(0)
    for r in range(RUNS):
        out = project / f"run{r:04d}"
        out.mkdir(parents=True)
        lr = float(10 ** rng.uniform(-4, -1))
        loss = 2.0 * numpy.exp(-iterations * lr / 10) + 0.05 * rng.random(ENTRIES)
        (out / "log").write_text(template % tuple(loss.tolist()))
        (out / "args").write_text(json.dumps({"lr": lr, "batchsize": int(rng.choice([32, 64, 128])), "seed": r}))


def _refresh_ms(page) -> float:
    return page.evaluate("performance.getEntriesByName('kusari-refresh').at(-1).duration")


@pytest.mark.slow
def test_a_thousand_runs_of_ten_thousand_entries_render_in_under_a_second(db_url, ui_server, page, tmp_path):
    from sqlalchemy import orm
    project = tmp_path / "proj"
    start = time.perf_counter()
    _generate(project)
    generated = time.perf_counter() - start
    with orm.Session(store.engine(db_url)) as session:
        crawler.crawl_project(session, store.create_project(session, str(project), "scale"))
    crawled = time.perf_counter() - start - generated

    # a fresh page LOADS times (the first refresh of each), then REFRESHES refreshes of the last one;
    # the medians must be in budget (two shared cores: single timings vary by 2x with the other work)
    load_ms = []
    for _ in range(LOADS):
        page.goto(ui_server.url + "/?refresh=3600")   # no timed poll: the test starts each refresh itself
        expect(page.locator("#status")).to_have_text(f"scale: {RUNS} runs", timeout=60_000)
        load_ms.append(_refresh_ms(page))
    # the table pages its rows (the layout of 1,000 rows alone took 0.3 to 0.9 s)
    assert page.locator("#runs tbody tr").count() == 100
    expect(page.locator("#rows")).to_have_text(f"runs 1–100 of {RUNS}")
    labels = page.evaluate("state.plot.series.map(s => s.label)")
    assert labels == ["iteration"] + [f"run{r:04d}" for r in range(SELECTED)]
    # each run's curve reaches from the first to the last iteration, reduced on the server
    assert page.evaluate("[state.plot.data[0][0], state.plot.data[0].at(-1)]") == [1, ENTRIES]
    points = page.evaluate("state.plot.data[0].length")
    refresh_ms = []
    for _ in range(REFRESHES):
        page.evaluate("refresh()")
        refresh_ms.append(_refresh_ms(page))
    print(f"\n{RUNS} runs x {ENTRIES} entries: generated in {generated:.1f} s, first crawl {crawled:.1f} s; "
          f"table of {RUNS} runs + chart of {SELECTED} runs ({points} x values): page loads "
          f"{', '.join(f'{ms:.0f}' for ms in load_ms)} ms, refreshes {', '.join(f'{ms:.0f}' for ms in refresh_ms)} "
          f"ms (budget {BUDGET_MS} ms for the medians)")
    assert statistics.median(load_ms) < BUDGET_MS and statistics.median(refresh_ms) < BUDGET_MS
    # sorting the whole table stays interactive
    start = page.evaluate("performance.now()")
    page.locator("#runs th", has_text="lr").click()
    sort_ms = page.evaluate("performance.now()") - start
    lrs = {f"run{r:04d}": json.loads((project / f"run{r:04d}" / "args").read_text())["lr"] for r in range(RUNS)}
    assert page.locator("#runs tbody tr").first.get_attribute("data-run") == min(lrs, key=lrs.get)
    page.click("#next")
    expect(page.locator("#rows")).to_have_text(f"runs 101–200 of {RUNS}")
    assert page.locator("#runs tbody tr").first.get_attribute("data-run") == sorted(lrs, key=lrs.get)[100]
    print(f"sort of {RUNS} rows by lr: {sort_ms:.0f} ms (click to the next script turn, round trips included)")
