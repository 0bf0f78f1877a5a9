// kusari-ui's page: projects, a run table with the arguments as columns (sortable, filterable), a chart
// of one logged key for the selected runs, and commands; run.js draws one run's page (#/projects/P/results/R). Everything from the server is shown through
// textContent, never parsed as HTML, so a run's name or argument cannot inject markup.
"use strict";

const api = (path, options) => fetch("api/v1" + path, options).then(async (r) => {
  const body = await r.json();
  if (!r.ok) throw new Error(body.message || r.statusText);
  return body;
});
const state = { project: null, results: [], selected: new Set(), sort: { key: "id", dir: 1 }, page: 0, plot: null,
  busy: false, chartRequest: 0 };
// rows in the page at once: laying out a table of 1,000 rows took 0.3 to 0.9 s in Chromium, 100 take 40 ms
const PAGE_ROWS = 100;
const COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
// ?refresh=SECONDS sets how often the page follows training runs (5 s by default)
const REFRESH_S = Number(new URLSearchParams(location.search).get("refresh")) || 5;

function el(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

function status(message) { document.getElementById("status").textContent = message; }

async function loadProjects() {
  const { projects } = await api("/projects");
  const list = document.getElementById("projects");
  list.replaceChildren(...projects.map((p) => {
    const item = el("li", p.name, { title: p.pathName });
    item.onclick = () => { state.project = p; state.selected.clear(); location.hash = "#/"; refresh(); };
    if (state.project && state.project.id === p.id) item.className = "selected";
    return item;
  }));
  if (!state.project && projects.length) { state.project = projects[0]; refresh(); }
}

const argsOf = (r) => Object.fromEntries(r.args.map((a) => [a.key, a.value]));
const lastOf = (r) => r.logs.length ? Object.fromEntries(r.logs.at(-1).logItems.map((i) => [i.key, i.value])) : {};

// One refresh: the run list with each run's last log entry only, the table, then the chart of the
// selected runs from the server's reduced series. Timed as the "kusari-refresh" performance measure
// (until the frame that shows it), which the scale test reads.
async function refresh() {
  if (!state.project || state.busy || runRoute()) return;
  state.busy = true;
  performance.mark("kusari-refresh-start");
  try {
    const { results } = await api(`/projects/${state.project.id}/results?logs_limit=1`);
    state.results = results.map((r) => ({ ...r, argMap: argsOf(r), last: lastOf(r) }));
    if (!state.selected.size) results.slice(0, 10).forEach((r) => state.selected.add(r.id));
    renderTable();
    await renderChart();
    await new Promise(requestAnimationFrame);
    performance.measure("kusari-refresh", "kusari-refresh-start");
    const unreadable = results.filter((r) => r.logError).length;
    status(`${state.project.name}: ${results.length} runs` + (unreadable ? `, ${unreadable} with an unreadable log` : ""));
  } catch (e) { status(e.message); } finally { state.busy = false; }
  loadProjects();
}

function renderTable() {
  const argKeys = [...new Set(state.results.flatMap((r) => Object.keys(r.argMap)))].sort();
  const columns = ["", "id", "name", ...argKeys, "iteration", "commands"];
  const filter = document.getElementById("filter").value.toLowerCase();
  const rows = state.results.filter((r) => !filter || [r.name, ...Object.values(r.argMap)]
    .some((v) => String(v).toLowerCase().includes(filter)));
  const value = (r, key) => key === "id" ? r.id : key === "name" ? r.name
    : key === "iteration" ? r.last.iteration : r.argMap[key];
  const { key, dir } = state.sort;
  rows.sort((a, b) => {
    const x = value(a, key), y = value(b, key);
    const nx = Number(x), ny = Number(y);
    const c = !isNaN(nx) && !isNaN(ny) ? nx - ny : String(x ?? "").localeCompare(String(y ?? ""));
    return c * dir;
  });
  const head = el("tr");
  for (const c of columns) {
    const th = el("th", c + (c === key ? (dir > 0 ? " ▲" : " ▼") : ""));
    if (c && c !== "commands") {
      th.onclick = () => { state.sort = { key: c, dir: c === key ? -dir : 1 }; state.page = 0; renderTable(); };
    }
    head.append(th);
  }
  document.querySelector("#runs thead").replaceChildren(head);
  const pages = Math.max(1, Math.ceil(rows.length / PAGE_ROWS));
  state.page = Math.min(state.page, pages - 1);
  const first = state.page * PAGE_ROWS, shown = rows.slice(first, first + PAGE_ROWS);
  document.getElementById("rows").textContent = rows.length
    ? `runs ${first + 1}–${first + shown.length} of ${rows.length}` + (filter ? ` (filtered from ${state.results.length})` : "")
    : "no runs";
  document.getElementById("prev").disabled = state.page === 0;
  document.getElementById("next").disabled = state.page === pages - 1;
  document.querySelector("#runs tbody").replaceChildren(...shown.map((r) => {
    const tr = el("tr", null, { "data-run": r.name });
    const box = el("input", null, { type: "checkbox" });
    box.checked = state.selected.has(r.id);
    box.onchange = () => {
      box.checked ? state.selected.add(r.id) : state.selected.delete(r.id);
      renderChart().catch((e) => status(e.message));
    };
    const check = el("td"); check.append(box); tr.append(check);
    for (const c of columns.slice(1, -1)) {
      const td = c === "name" ? el("td") : el("td", value(r, c) ?? "");
      if (c === "name") td.append(el("a", r.name, { href: `#/projects/${state.project.id}/results/${r.id}` }));
      // a log the server could not read: the run stays listed with what was read before, and says why
      if (c === "name" && r.logError) td.append(el("span", " ⚠ log unreadable", { class: "warning", title: r.logError }));
      tr.append(td);
    }
    tr.append(commandCell(state.project.id, r));
    return tr;
  }));
}

// The buttons that command run r of project projectId, and the last command's state.
function commandCell(projectId, r) {
  const td = el("td");
  const send = (name, body) => api(`/projects/${projectId}/results/${r.id}/commands`, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name, body }),
  }).then(() => status(`${name} sent to ${r.name}`), (e) => status(e.message));
  const stop = el("button", "stop"); stop.onclick = () => send("stop", null);
  const snap = el("button", "snapshot"); snap.onclick = () => send("take_snapshot", null);
  const lr = el("button", "lr…");
  lr.onclick = () => {
    const v = Number(prompt("new learning rate (lr)"));
    if (v > 0) send("adjust_hyperparams", { hyperparam: { lr: v } });
  };
  td.append(stop, snap, lr);
  const last = r.commands.at(-1);
  if (last) td.append(el("span", ` ${last.name}: ${last.response ? last.response.status : "open"}`));
  return td;
}

async function renderChart() {
  const runs = state.results.filter((r) => state.selected.has(r.id));
  const keys = [...new Set(runs.flatMap((r) => r.logKeys))].sort();
  const ysel = document.getElementById("ykey");
  const ykey = keys.includes(ysel.value) ? ysel.value : keys.find((k) => k.endsWith("loss")) || keys[0];
  ysel.replaceChildren(...keys.map((k) => el("option", k)));
  ysel.value = ykey;
  const xkey = document.getElementById("xkey").value;
  const width = Math.max(400, document.getElementById("chart").clientWidth);
  // one request for every curve, each reduced by the server to about a point per pixel
  const query = new URLSearchParams({ results: runs.map((r) => r.id).join(","), x: xkey, y: ykey ?? "",
    points: width, smoothing: document.getElementById("smooth").value });
  const request = ++state.chartRequest;
  const curves = ykey === undefined || !runs.length ? [] : (await api(`/projects/${state.project.id}/series?${query}`)).series;
  if (request !== state.chartRequest) return;   // a newer chart was asked for meanwhile
  // uPlot wants one x array: the union of every run's x, each series null where it has no point
  const xs = [...new Set(curves.flatMap((c) => c.x))].sort((a, b) => a - b);
  const index = new Map(xs.map((x, i) => [x, i]));
  const series = curves.map((c) => {
    const ys = new Array(xs.length).fill(null);
    c.x.forEach((x, i) => { ys[index.get(x)] = c.y[i]; });
    return ys;
  });
  const log = document.getElementById("logscale").checked;
  const opts = {
    width, height: 320,
    scales: { x: { time: false }, y: { distr: log ? 3 : 1 } },
    series: [{ label: xkey }, ...runs.map((r, i) => ({ label: r.name, stroke: COLORS[i % COLORS.length], spanGaps: true }))],
  };
  if (state.plot) state.plot.destroy();
  state.plot = new uPlot(opts, [xs, ...series], document.getElementById("chart"));
}

for (const id of ["ykey", "xkey", "logscale", "smooth"]) {
  document.getElementById(id).onchange = () => renderChart().catch((e) => status(e.message));
}
document.getElementById("filter").oninput = () => { state.page = 0; renderTable(); };
document.getElementById("prev").onclick = () => { state.page -= 1; renderTable(); };
document.getElementById("next").onclick = () => { state.page += 1; renderTable(); };
// the address says which page: #/projects/P/results/R is a run's, anything else the overview
function route() {
  const run = runRoute();
  document.getElementById("overview").hidden = !!run;
  document.getElementById("run").hidden = !run;
  return run ? refreshRun(run) : refresh();
}
window.onhashchange = route;
route();          // the overview waits for loadProjects to pick a project
loadProjects();
setInterval(route, REFRESH_S * 1000);   // charts, tables and images follow runs while they train
