// kusari-ui's page: projects, a run table with the arguments as columns (sortable, filterable), a chart
// of one logged key for the selected runs, and commands. Everything from the server is shown through
// textContent, never parsed as HTML, so a run's name or argument cannot inject markup.
"use strict";

const api = (path, options) => fetch("api/v1" + path, options).then(async (r) => {
  const body = await r.json();
  if (!r.ok) throw new Error(body.message || r.statusText);
  return body;
});
const state = { project: null, results: [], selected: new Set(), sort: { key: "id", dir: 1 }, plot: null };
const COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];

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
    item.onclick = () => { state.project = p; state.selected.clear(); refresh(); };
    if (state.project && state.project.id === p.id) item.className = "selected";
    return item;
  }));
  if (!state.project && projects.length) { state.project = projects[0]; refresh(); }
}

const argsOf = (r) => Object.fromEntries(r.args.map((a) => [a.key, a.value]));
const entriesOf = (r) => r.logs.map((l) => Object.fromEntries(l.logItems.map((i) => [i.key, i.value])));

async function refresh() {
  if (!state.project) return;
  try {
    const { results } = await api(`/projects/${state.project.id}/results?logs_limit=1000`);
    state.results = results;
    if (!state.selected.size) results.slice(0, 10).forEach((r) => state.selected.add(r.id));
    renderTable();
    renderChart();
    status(`${state.project.name}: ${results.length} runs`);
  } catch (e) { status(e.message); }
  loadProjects();
}

function renderTable() {
  const argKeys = [...new Set(state.results.flatMap((r) => r.args.map((a) => a.key)))].sort();
  const columns = ["", "id", "name", ...argKeys, "iteration", "commands"];
  const filter = document.getElementById("filter").value.toLowerCase();
  const rows = state.results.filter((r) => !filter || [r.name, ...Object.values(argsOf(r))]
    .some((v) => String(v).toLowerCase().includes(filter)));
  const value = (r, key) => key === "id" ? r.id : key === "name" ? r.name
    : key === "iteration" ? (entriesOf(r).at(-1) || {}).iteration : argsOf(r)[key];
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
    if (c && c !== "commands") th.onclick = () => { state.sort = { key: c, dir: c === key ? -dir : 1 }; renderTable(); };
    head.append(th);
  }
  document.querySelector("#runs thead").replaceChildren(head);
  document.querySelector("#runs tbody").replaceChildren(...rows.map((r) => {
    const tr = el("tr");
    const box = el("input", null, { type: "checkbox" });
    box.checked = state.selected.has(r.id);
    box.onchange = () => { box.checked ? state.selected.add(r.id) : state.selected.delete(r.id); renderChart(); };
    const first = el("td"); first.append(box); tr.append(first);
    for (const c of columns.slice(1, -1)) tr.append(el("td", value(r, c) ?? ""));
    tr.append(commandCell(r));
    return tr;
  }));
}

function commandCell(r) {
  const td = el("td");
  const send = (name, body) => api(`/projects/${state.project.id}/results/${r.id}/commands`, {
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

function renderChart() {
  const runs = state.results.filter((r) => state.selected.has(r.id));
  const keys = [...new Set(runs.flatMap((r) => entriesOf(r).flatMap(Object.keys)))].sort();
  const ysel = document.getElementById("ykey");
  const ykey = keys.includes(ysel.value) ? ysel.value : keys.find((k) => k.endsWith("loss")) || keys[0];
  ysel.replaceChildren(...keys.map((k) => el("option", k)));
  ysel.value = ykey;
  const xkey = document.getElementById("xkey").value;
  const alpha = Number(document.getElementById("smooth").value);
  // uPlot wants one x array: the union of every run's x, each series null where it has no point
  const xs = [...new Set(runs.flatMap((r) => entriesOf(r).map((e) => e[xkey]).filter((x) => x != null)))].sort((a, b) => a - b);
  const index = new Map(xs.map((x, i) => [x, i]));
  const series = runs.map((r) => {
    const ys = new Array(xs.length).fill(null);
    let s = null;
    for (const e of entriesOf(r)) {
      if (e[xkey] == null || e[ykey] == null) continue;
      s = s === null ? e[ykey] : alpha * s + (1 - alpha) * e[ykey];   // exponential moving average
      ys[index.get(e[xkey])] = s;
    }
    return ys;
  });
  const log = document.getElementById("logscale").checked;
  const opts = {
    width: Math.max(400, document.getElementById("chart").clientWidth), height: 320,
    scales: { x: { time: false }, y: { distr: log ? 3 : 1 } },
    series: [{ label: xkey }, ...runs.map((r, i) => ({ label: r.name, stroke: COLORS[i % COLORS.length], spanGaps: true }))],
  };
  if (state.plot) state.plot.destroy();
  state.plot = new uPlot(opts, [xs, ...series], document.getElementById("chart"));
}

for (const id of ["ykey", "xkey", "logscale", "smooth"]) document.getElementById(id).onchange = renderChart;
document.getElementById("filter").oninput = renderTable;
loadProjects();
setInterval(refresh, 5000);   // charts follow runs while they train
