// kusari-ui's run page (#/projects/P/results/R): a run's arguments, its commands with the Trainer's
// answers, its images (PlotReport's plots, the vision visualizations) and its log as a table, newest
// first. Server text reaches the page through textContent only, as in app.js.
"use strict";

// images of this many steps a page (a run that draws every 100 iterations has hundreds)
const IMAGE_STEPS = 10;
const runPage = { key: null, busy: false };

function runRoute() {
  const m = location.hash.match(/^#\/projects\/(\d+)\/results\/(\d+)$/);
  return m ? { project: Number(m[1]), result: Number(m[2]) } : null;
}

// prev/next buttons into the element with id `id` for `count` items, `size` a page; page(n) shows page n
function pager(id, count, size, current, page) {
  const pages = Math.max(1, Math.ceil(count / size));
  const prev = el("button", "‹ prev"), next = el("button", "next ›");
  prev.disabled = current === 0; next.disabled = current >= pages - 1;
  prev.onclick = () => page(current - 1); next.onclick = () => page(current + 1);
  const label = count ? `${current * size + 1}–${Math.min(count, (current + 1) * size)} of ${count}` : "none";
  document.getElementById(id).replaceChildren(prev, el("span", label), next);
}

// One refresh of the run page: the result without its log (logs_limit=0) and its assets; the log itself
// only when the run's log changed since the last look.
async function refreshRun(route) {
  if (runPage.busy) return;
  runPage.busy = true;
  const base = `/projects/${route.project}/results/${route.result}`;
  if (runPage.key !== base) {
    Object.assign(runPage, { key: base, logStamp: null, logs: [], logKeys: [], logPage: 0, assets: null, imagePage: 0 });
  }
  try {
    const [{ result }, { assets }] = await Promise.all([api(base + "?logs_limit=0"), api(base + "/assets")]);
    document.getElementById("run-name").textContent = result.name;
    document.getElementById("run-path").textContent = result.pathName
      + (result.snapshots.length ? ` · snapshots: ${result.snapshots.map((s) => s.name).join(", ")}` : "");
    renderRunArgs(result);
    renderRunCommands(route.project, result);
    const stamp = `${result.logCount} ${result.logModifiedAt}`;
    if (stamp !== runPage.logStamp) {
      const { logs } = await api(base + "/logs");
      runPage.logs = logs.map((l) => Object.fromEntries(l.logItems.map((i) => [i.key, i.value]))).reverse();
      runPage.logKeys = result.logKeys;
      runPage.logStamp = stamp;
      renderRunLog();
    }
    // images are laid out again only when a file was added, removed or rewritten
    if (JSON.stringify(assets) !== JSON.stringify(runPage.assets)) {
      runPage.assets = assets;
      renderRunImages(route);
    }
    status(result.logError ? `${result.name}: the log is unreadable (${result.logError})` : result.name);
  } catch (e) { status(e.message); } finally { runPage.busy = false; }
}

function renderRunArgs(result) {
  document.querySelector("#run-args tbody").replaceChildren(...result.args.map((a) => {
    const tr = el("tr"); tr.append(el("th", a.key), el("td", a.value ?? "")); return tr;
  }));
}

// a cell's text: objects as JSON, fractions to 6 significant digits (the full value in the cell's title)
const shown = (value) => value === null || value === undefined ? "" : typeof value === "object" ? JSON.stringify(value)
  : typeof value === "number" && !Number.isInteger(value) ? String(Number(value.toPrecision(6))) : String(value);

function renderRunCommands(projectId, result) {
  document.getElementById("run-buttons").replaceChildren(...commandCell(projectId, result).childNodes);
  const head = el("tr");
  for (const c of ["id", "command", "body", "sent", "status", "iteration", "answer"]) head.append(el("th", c));
  document.querySelector("#run-commands thead").replaceChildren(head);
  document.querySelector("#run-commands tbody").replaceChildren(...result.commands.map((c) => {
    const tr = el("tr", null, { "data-command": c.id });
    const answer = c.response || {};
    for (const v of [c.id, c.name, c.request.body, c.request.created_at, answer.status ?? c.request.status,
      answer.iteration, answer.body]) tr.append(el("td", shown(v)));
    return tr;
  }));
}

function renderRunLog() {
  const keys = runPage.logKeys, rows = runPage.logs;
  runPage.logPage = Math.min(runPage.logPage, Math.max(0, Math.ceil(rows.length / PAGE_ROWS) - 1));
  pager("run-log-pager", rows.length, PAGE_ROWS, runPage.logPage, (n) => { runPage.logPage = n; renderRunLog(); });
  const head = el("tr");
  for (const k of keys) head.append(el("th", k));
  document.querySelector("#run-log thead").replaceChildren(head);
  const first = runPage.logPage * PAGE_ROWS;
  document.querySelector("#run-log tbody").replaceChildren(...rows.slice(first, first + PAGE_ROWS).map((entry) => {
    const tr = el("tr");
    for (const k of keys) tr.append(el("td", shown(entry[k]), { title: String(entry[k] ?? "") }));
    return tr;
  }));
}

// the images without a step (a plot rewritten at each trigger) first, then the steps, newest first
function renderRunImages(route) {
  const steps = [...runPage.assets.filter((a) => !Object.keys(a.train_info).length),
    ...runPage.assets.filter((a) => Object.keys(a.train_info).length).reverse()];
  runPage.imagePage = Math.min(runPage.imagePage, Math.max(0, Math.ceil(steps.length / IMAGE_STEPS) - 1));
  pager("run-images-pager", steps.length, IMAGE_STEPS, runPage.imagePage,
    (n) => { runPage.imagePage = n; renderRunImages(route); });
  const first = runPage.imagePage * IMAGE_STEPS;
  document.getElementById("run-images").replaceChildren(...steps.slice(first, first + IMAGE_STEPS).map((a) => {
    const info = Object.entries(a.train_info).map(([k, v]) => `${k} ${v}`).join(", ");
    const step = el("div", null, { class: "step" });
    step.append(el("h4", info || "latest"));
    for (const c of a.contents) {
      const figure = el("figure");
      // the modification time in the address: a rewritten plot is fetched again, an unchanged one is not
      const src = `api/v1/projects/${route.project}/results/${route.result}/assets/${c.id}?v=${c.file_modified_at}`;
      figure.append(el("img", null, { src, alt: c.name, loading: "lazy" }), el("figcaption", c.name));
      step.append(figure);
    }
    return step;
  }));
}
