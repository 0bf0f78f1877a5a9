"""Take the screenshots of docs/ui.md: the dashboard in headless Chromium (Playwright), on runs trained here.

``python tools/ui_screenshots.py [--out docs/ui]`` trains five small MLPs on a synthetic two-class problem
(SGD, MomentumSGD and Adam at several learning rates, 600 iterations each, a few seconds in all) into a
temporary project, starts one more run that keeps training, serves the dashboard on a free loopback port,
and from the page sends that run a new learning rate and then ``stop``. It writes:

- ``dashboard.png``: the run table (arguments as columns) and the loss of every run;
- ``commands.png``: the table sorted by ``lr`` with the answered ``stop``, and the learning rate of every
  run (log scale): the live run's drops from 0.1 to 0.01 where the page's command reached it;
- ``run.png``: the live run's page: its arguments, the two commands with the Trainer's answers, the
  loss and accuracy plots its PlotReports drew, and the top of its log.

Needs ``pip install playwright`` and Debian's Chromium at /usr/bin/chromium (or ``--chromium PATH``).
"""
import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import numpy

import kusari.links as L
import kusari.functions as F
from kusari import Chain, iterators, optimizers, training
from kusari.training import extensions
from kusari.ui import save_args, store
from kusari.ui.extensions import CommandsExtension

RUNS = [("sgd", optimizers.SGD, 0.05), ("sgd", optimizers.SGD, 0.2), ("momentum_sgd", optimizers.MomentumSGD, 0.01),
        ("momentum_sgd", optimizers.MomentumSGD, 0.05), ("adam", optimizers.Adam, 0.003)]


class MLP(Chain):
    def __init__(self, units: int):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(2, units)
            self.l2 = L.Linear(units, 2)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


def _spirals(n: int = 512, seed: int = 0):
    """Two interleaved spirals, ``(x, t)`` of shapes ``(n, 2)`` float32 and ``(n,)`` int32."""
    rng = numpy.random.default_rng(seed)
    t = rng.integers(0, 2, n).astype(numpy.int32)
    r = rng.uniform(0.2, 1.0, n)
    angle = 3 * numpy.pi * r + numpy.pi * t
    x = numpy.stack([r * numpy.cos(angle), r * numpy.sin(angle)], 1) + 0.03 * rng.standard_normal((n, 2))
    return x.astype(numpy.float32), t


def _trainer(out, name, make_optimizer, lr, iterations, units=32):
    x, t = _spirals()
    model = L.Classifier(MLP(units))
    optimizer = make_optimizer(alpha=lr) if make_optimizer is optimizers.Adam else make_optimizer(lr=lr)
    optimizer.setup(model)
    updater = training.updaters.StandardUpdater(iterators.SerialIterator(list(zip(x, t)), 32), optimizer)
    trainer = training.Trainer(updater, (iterations, "iteration"), out=out)
    save_args({"optimizer": name, "lr": lr, "units": units, "batchsize": 32}, out)
    trainer.extend(extensions.LogReport(trigger=(20, "iteration")))
    trainer.extend(extensions.observe_lr(), trigger=(1, "iteration"))
    for key in ("loss", "accuracy"):
        trainer.extend(extensions.PlotReport([f"main/{key}"], trigger=(100, "iteration"), filename=f"{key}.png"))
    return trainer, optimizer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "docs", "ui"))
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    from playwright.sync_api import expect, sync_playwright

    tmp = tempfile.mkdtemp(prefix="kusari_ui_shots_")
    project = os.path.join(tmp, "spirals")
    for name, make, lr in RUNS:
        _trainer(os.path.join(project, f"{name}_lr{lr}"), name, make, lr, 600)[0].run()
    live, live_optimizer = _trainer(os.path.join(project, "momentum_sgd_live"), "momentum_sgd",
                                    optimizers.MomentumSGD, 0.1, 100_000)
    live.extend(CommandsExtension())
    live.extend(lambda tr: time.sleep(0.005), trigger=(1, "iteration"), name="pace")
    thread = threading.Thread(target=live.run, daemon=True)
    thread.start()

    url = f"sqlite:///{os.path.join(tmp, 'ui.sqlite')}"
    store.upgrade(url)
    subprocess.run([sys.executable, "-m", "kusari.ui", "--db", url, "project", "create", "-d", project], check=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = open(os.path.join(tmp, "server.log"), "w")
    server = subprocess.Popen([sys.executable, "-m", "kusari.ui", "--db", url, "server", "--port", str(port)],
                              stdout=log, stderr=subprocess.STDOUT)
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/projects", timeout=5).close()
                break
            except OSError:
                time.sleep(0.2)
        os.makedirs(args.out, exist_ok=True)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=args.chromium, args=[
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
            page = browser.new_page(viewport={"width": 1100, "height": 720})
            page.goto(f"http://127.0.0.1:{port}/?refresh=1")
            page.wait_for_function("() => state.plot && state.plot.series.length === 7")
            page.wait_for_function("() => state.plot.data[0].at(-1) >= 1000")
            page.screenshot(path=os.path.join(args.out, "dashboard.png"))

            live_row = page.locator('#runs tr[data-run="momentum_sgd_live"]')
            page.once("dialog", lambda dialog: dialog.accept("0.01"))
            live_row.get_by_role("button", name="lr…").click()
            expect(live_row).to_contain_text("adjust_hyperparams: SUCCESS", timeout=30_000)
            page.wait_for_timeout(3000)   # the new rate shows in the curve
            live_row.get_by_role("button", name="stop").click()
            expect(live_row).to_contain_text("stop: SUCCESS", timeout=30_000)
            page.locator("#runs th", has_text="lr").click()
            page.select_option("#ykey", "lr")
            page.check("#logscale")
            page.wait_for_timeout(1500)
            page.screenshot(path=os.path.join(args.out, "commands.png"))

            live_row.get_by_role("link", name="momentum_sgd_live").click()
            expect(page.locator("#run-commands tbody tr")).to_have_count(2)
            page.wait_for_function("() => [...document.querySelectorAll('#run-images img')]"
                                   ".every(i => i.complete && i.naturalWidth > 0)")
            page.set_viewport_size({"width": 1100, "height": 1250})
            page.wait_for_timeout(1000)   # a shot right after the resize catches the images unpainted
            page.screenshot(path=os.path.join(args.out, "run.png"))
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
        if thread.is_alive():   # the page did not stop it
            live.stop_trigger = lambda tr: True
        thread.join(timeout=60)
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"screenshots in {os.path.abspath(args.out)}; live run stopped at iteration "
          f"{live.updater.iteration} with lr {live_optimizer.lr}")


if __name__ == "__main__":
    main()
