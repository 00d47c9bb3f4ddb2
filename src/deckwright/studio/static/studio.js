// deckwright studio: the page. Views are drawn once per route and then patched in place on
// every change the server announces (server-sent events), so images swap without a reload
// and the scroll position stays where the designer left it.
"use strict";

const STAGE_TITLES = { faces: "card faces", print: "print files", documents: "documents" };
const STAGE_STATES = {
  waiting: "waiting for the stages before it",
  building: "being rebuilt",
  done: "up to date",
  blocked: "not written: fix the errors first",
  failed: "failed",
};
const VIEWS = [
  ["cards", "Cards"],
  ["pnp", "Print & play"],
  ["rulebook", "Rulebook"],
  ["errata", "Errata"],
  ["check", "Editor's check"],
  ["problems", "Problems"],
];

let state = null; // /api/state
let current = null; // { game, view, arg, mounted }
const filters = {}; // game -> { q, type, deck, offset }
let updating = false;
let again = false;

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

function svg(tag, attrs) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

async function json(url) {
  const response = await fetch(url, { cache: "no-store" });
  if (!response.ok) return null;
  return response.json();
}

function setSrc(img, src) {
  if (img.getAttribute("src") !== src) img.setAttribute("src", src);
}

function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

function gameState() {
  return state && current ? state.games.find((g) => g.id === current.game) : null;
}

function output(game, name) {
  return game.outputs.find((o) => o.name === name);
}

function editorLink(href, text) {
  return h("a", { href, class: "loc", title: "open in the editor" }, text);
}

// ---- routing --------------------------------------------------------------------------------

function parseRoute() {
  const parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  const games = state ? state.games.map((g) => g.id) : [];
  const game = games.includes(parts[0]) ? parts[0] : games[0];
  const view = VIEWS.some(([v]) => v === parts[1]) || parts[1] === "card" ? parts[1] : "cards";
  return { game, view, arg: parts.slice(2).join("/") };
}

function href(game, view, arg) {
  return "#/" + [game, view, arg].filter(Boolean).map(encodeURIComponent).join("/");
}

function navigate() {
  const route = parseRoute();
  if (!route.game) return;
  current = { ...route, mounted: null };
  const main = document.getElementById("view");
  main.replaceChildren();
  window.scrollTo(0, 0);
  const view = route.view === "card" ? cardView : views[route.view];
  current.mounted = view.mount(main, route);
  drawChrome();
  scheduleUpdate();
}

// ---- the frame: games, stages, views, problems ----------------------------------------------------

function drawChrome() {
  const game = gameState();
  if (!game) return;
  const games = document.getElementById("games");
  games.replaceChildren(
    ...state.games.map((g) =>
      h("a", { href: href(g.id), class: g.id === game.id ? "current" : "" }, h("span", { class: `dot ${g.state}` }), g.name),
    ),
  );
  const status = document.getElementById("status");
  status.replaceChildren(
    ...Object.entries(game.stages).map(([stage, s]) =>
      h("span", { class: `stage ${s}`, "data-stage": stage, title: `${STAGE_TITLES[stage] || stage}: ${STAGE_STATES[s] || s}${s === "done" && game.stage_seconds[stage] !== undefined ? ` (${game.stage_seconds[stage].toFixed(2)} s)` : ""}` }, STAGE_TITLES[stage] || stage),
    ),
  );
  status.dataset.state = game.state;
  const nav = document.getElementById("views");
  const counts = { cards: game.cards, problems: game.errors ? (game.errors === 1 ? "1 error" : `${game.errors} errors`) : game.warnings ? `${game.warnings}` : "" };
  nav.replaceChildren(
    ...VIEWS.map(([view, title]) =>
      h(
        "a",
        { href: href(game.id, view), class: current.view === view || (view === "cards" && current.view === "card") ? "current" : "" },
        title,
        counts[view] !== undefined && counts[view] !== "" ? h("span", { class: "count" + (view === "problems" && game.errors ? " bad" : "") }, counts[view]) : null,
      ),
    ),
  );
  const decks = document.getElementById("decks");
  decks.replaceChildren(
    h("h3", {}, "Decks"),
    ...game.decks.map((d) => h("div", {}, h("b", {}, d.title), `${d.cards} ${d.cards === 1 ? "card" : "cards"} · ${d.copies} ${d.copies === 1 ? "copy" : "copies"}`)),
  );
  drawProblems(game);
}

function diagItem(d) {
  return h("li", { class: `diag ${d.severity}` }, h("span", { class: "sev" }, d.severity), h("span", { class: "msg" }, d.message), editorLink(d.editor, `${d.path}:${d.line}`));
}

function drawProblems(game) {
  const box = document.getElementById("problems");
  const errors = game.diagnostics.filter((d) => d.severity === "error");
  if (game.state === "failed" || game.state === "locked") {
    box.hidden = false;
    box.className = "";
    box.replaceChildren(h("h2", {}, game.state === "locked" ? "Another build of this game is running" : "deckwright failed"), h("pre", {}, game.message));
    return;
  }
  if (!errors.length || current.view === "problems") {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.hidden = false;
  box.className = "";
  const n = errors.length === 1 ? "1 error" : `${errors.length} errors`;
  box.replaceChildren(
    h("h2", {}, `${n}: the print files are not written until ${errors.length === 1 ? "it is" : "they are"} fixed`),
    h("ul", {}, errors.map(diagItem)),
  );
}

// ---- views ---------------------------------------------------------------------------------

const views = {};

views.cards = {
  mount(main, route) {
    const f = (filters[route.game] ||= { q: "", type: "", deck: "", offset: 0 });
    const game = gameState();
    const search = h("input", { type: "search", placeholder: "Filter by name, id or text…", value: f.q, "aria-label": "filter" });
    search.addEventListener("input", () => { f.q = search.value; f.offset = 0; scheduleUpdate(); });
    const type = h("select", { "aria-label": "type" }, h("option", { value: "" }, "All types"), game.types.map((t) => h("option", { value: t.id }, t.title)));
    type.value = f.type;
    type.addEventListener("change", () => { f.type = type.value; f.offset = 0; scheduleUpdate(); });
    const deck = h("select", { "aria-label": "deck" }, h("option", { value: "" }, "All decks"), game.decks.map((d) => h("option", { value: d.id }, d.title)));
    deck.value = f.deck;
    deck.addEventListener("change", () => { f.deck = deck.value; f.offset = 0; scheduleUpdate(); });
    const summary = h("span", { class: "summary" });
    const grid = h("div", { class: "grid", id: "grid" });
    const prev = h("button", { type: "button" }, "← Previous");
    const next = h("button", { type: "button" }, "Next →");
    const where = h("span", { class: "where" });
    prev.addEventListener("click", () => { f.offset = Math.max(0, f.offset - this.limit); scheduleUpdate(); window.scrollTo(0, 0); });
    next.addEventListener("click", () => { f.offset += this.limit; scheduleUpdate(); window.scrollTo(0, 0); });
    const pager = h("div", { class: "pager" }, prev, where, next);
    main.append(h("div", { class: "toolbar" }, search, type, deck, summary), grid, pager);
    return { grid, summary, prev, next, where, pager, tiles: new Map(), game: route.game, f };
  },
  limit: 60,
  async update(m) {
    const f = m.f;
    const params = new URLSearchParams({ q: f.q, type: f.type, deck: f.deck, offset: f.offset });
    const data = await json(`/api/games/${encodeURIComponent(m.game)}/cards?${params}`);
    if (!data || current.mounted !== m) return;
    this.limit = data.limit;
    f.offset = data.offset;
    const seen = new Set();
    let previous = null;
    for (const card of data.cards) {
      seen.add(card.id);
      let tile = m.tiles.get(card.id);
      if (!tile) {
        tile = h("a", { class: "tile", "data-card": card.id, href: href(m.game, "card", card.id) },
          h("div", { class: "img" }, h("img", { loading: "lazy", decoding: "async", alt: card.name })),
          h("div", { class: "name" }), h("div", { class: "meta" }, h("span", { class: "type" }), h("span", { class: "count" })));
        m.tiles.set(card.id, tile);
      }
      tile.classList.toggle("error", card.error);
      const img = tile.querySelector("img");
      if (card.front) setSrc(img, card.front.thumb);
      img.alt = card.name;
      setText(tile.querySelector(".name"), card.name);
      tile.title = card.name;
      setText(tile.querySelector(".type"), card.type);
      setText(tile.querySelector(".count"), `×${card.count}`);
      // keep the order without re-inserting tiles that are already in place
      const want = previous ? previous.nextSibling : m.grid.firstChild;
      if (want !== tile) m.grid.insertBefore(tile, want);
      previous = tile;
    }
    for (const [id, tile] of m.tiles) {
      if (!seen.has(id)) { tile.remove(); m.tiles.delete(id); }
    }
    const last = Math.min(data.offset + data.limit, data.total);
    setText(m.summary, data.total ? `${data.total} cards` : "no card matches");
    setText(m.where, data.total ? `${data.offset + 1}–${last} of ${data.total}` : "");
    m.prev.disabled = data.offset === 0;
    m.next.disabled = last >= data.total;
    m.pager.hidden = data.total <= data.limit;
  },
};

const cardView = {
  mount(main, route) {
    const back = h("a", { href: href(route.game, "cards") }, "← all cards");
    const overlay = h("input", { type: "checkbox", id: "overlay" });
    overlay.checked = localStorage.getItem("deckwright-overlay") === "1";
    const root = h("div", { class: "card-page" });
    overlay.addEventListener("change", () => {
      localStorage.setItem("deckwright-overlay", overlay.checked ? "1" : "0");
      root.querySelectorAll(".face svg").forEach((s) => (s.style.display = overlay.checked ? "" : "none"));
    });
    const legend = h("span", { class: "legend" },
      h("span", {}, h("i", { class: "bleed" }), "bleed"),
      h("span", {}, h("i", { class: "trim" }), "trim"),
      h("span", {}, h("i", { class: "safe" }), "safe zone"));
    const toolbar = h("div", { class: "toolbar" }, back, h("label", { class: "toggle" }, overlay, "trim, bleed and safe zone"), legend);
    const faces = h("div", { class: "faces" });
    const info = h("div");
    root.append(toolbar, info, faces, h("div", { class: "details" }));
    main.append(root);
    return { game: route.game, id: route.arg, root, faces, info, overlay, sides: {} };
  },
  async update(m) {
    const card = await json(`/api/games/${encodeURIComponent(m.game)}/cards/${encodeURIComponent(m.id)}`);
    if (current.mounted !== m) return;
    if (!card) {
      m.info.replaceChildren(h("p", { class: "empty" }, `There is no card ${m.id} (any more).`));
      m.faces.replaceChildren();
      m.root.querySelector(".details").replaceChildren();
      return;
    }
    m.info.replaceChildren(
      h("h1", {}, card.name),
      h("div", { class: "sub" }, `${card.type} · ${card.deck} · ×${card.count} · `, editorLink(card.editor, card.where)),
    );
    for (const side of ["front", "back"]) {
      const face = card[side];
      let el = m.sides[side];
      if (!face) { if (el) { el.remove(); delete m.sides[side]; } continue; }
      if (!el) {
        el = h("div", { class: "face", "data-side": side }, h("figure", {}, h("div", { class: "frame" }, h("img", { alt: `${card.name} (${side})` })), h("figcaption")));
        m.sides[side] = el;
        m.faces.append(el);
      }
      const frame = el.querySelector(".frame");
      const L = card.layout;
      if (L) {
        const w = L.width + 2 * L.bleed, hgt = L.height + 2 * L.bleed;
        frame.style.width = `${w}pt`;
        frame.style.height = `${hgt}pt`;
        frame.querySelector("svg")?.remove();
        frame.append(overlaySvg(L, m.overlay.checked));
      }
      setSrc(frame.querySelector("img"), face.image);
      el.classList.toggle("error", side === "front" && card.error);
      setText(el.querySelector("figcaption"), `${side} · ${face.name}${L ? ` · ${L.title}` : ""}${face.image.startsWith("/preview/") ? " · preview (not written)" : ""}`);
    }
    const details = m.root.querySelector(".details");
    const left = h("div", {},
      h("h2", {}, "Fields"),
      h("table", { class: "fields" }, h("tbody", {},
        h("tr", {}, h("th", {}, "id"), h("td", {}, card.id)),
        card.number ? h("tr", {}, h("th", {}, "number"), h("td", {}, card.number)) : null,
        card.fields.map((f) => h("tr", { "data-field": f.name }, h("th", {}, f.name), h("td", { class: f.unknown ? "unknown" : "" }, f.value), h("td", { class: "line" }, editorLink(f.editor, `line ${f.where.split(":").slice(-2)[0]}`))))),
      ),
    );
    const right = h("div", {});
    if (card.diagnostics.length) right.append(h("h2", {}, "Problems"), h("ul", { class: "plain" }, card.diagnostics.map(diagItem)));
    right.append(h("h2", {}, "Quoted by tables"));
    right.append(card.tables.length
      ? h("ul", { class: "plain" }, groupTables(card.tables).map((g) => h("li", { "data-table": g.id }, h("b", {}, g.table), ` · ${g.columns.join(", ")} · `, g.rows.length > 1 || g.rows[0].row ? "rows " : "", g.rows.flatMap((r) => [editorLink(r.editor, r.row || r.where), " "]))))
      : h("p", { class: "empty" }, "No table names this card."));
    right.append(h("h2", {}, "Quoted by the rulebook"));
    right.append(card.rulebook.length
      ? h("ul", { class: "plain" }, card.rulebook.map((r) => h("li", {}, h("b", {}, r.section), " ", h("code", {}, r.reference), " ", editorLink(r.editor, r.where))))
      : h("p", { class: "empty" }, "No rulebook section quotes this card."));
    details.replaceChildren(left, right);
  },
};

function groupTables(rows) {
  const groups = new Map();
  for (const r of rows) {
    if (!groups.has(r.id)) groups.set(r.id, { id: r.id, table: r.table, columns: [], rows: [] });
    const g = groups.get(r.id);
    for (const c of r.columns) if (!g.columns.includes(c)) g.columns.push(c);
    g.rows.push(r);
  }
  return [...groups.values()];
}

function overlaySvg(L, shown) {
  const w = L.width + 2 * L.bleed, hgt = L.height + 2 * L.bleed;
  const s = svg("svg", { viewBox: `0 0 ${w} ${hgt}`, "aria-hidden": "true" });
  s.append(
    svg("rect", { x: 0.4, y: 0.4, width: w - 0.8, height: hgt - 0.8, fill: "none", stroke: "#e03131", "stroke-width": 0.8, "stroke-dasharray": "3 2" }),
    svg("rect", { x: L.bleed, y: L.bleed, width: L.width, height: L.height, rx: L.radius, fill: "none", stroke: "#1c7ed6", "stroke-width": 0.8 }),
    svg("rect", { x: L.bleed + L.safe, y: L.bleed + L.safe, width: L.width - 2 * L.safe, height: L.height - 2 * L.safe, fill: "none", stroke: "#2b8a3e", "stroke-width": 0.8, "stroke-dasharray": "2 2" }),
  );
  if (!shown) s.style.display = "none";
  return s;
}

views.pnp = {
  mount(main, route) {
    const tabs = h("div", { class: "tabs" });
    const pages = h("div", { class: "pages" });
    main.append(tabs, pages);
    return { game: route.game, file: route.arg, tabs, pages, v: null };
  },
  async update(m) {
    const game = gameState();
    const pdfs = game.outputs.filter((o) => o.name.startsWith("pnp-"));
    if (!pdfs.length) {
      m.tabs.replaceChildren();
      m.pages.replaceChildren(h("p", { class: "empty" }, "No print-and-play PDF built yet."));
      return;
    }
    const file = pdfs.some((p) => p.name === m.file) ? m.file : pdfs[0].name;
    m.tabs.replaceChildren(...pdfs.map((p) => h("a", { href: href(m.game, "pnp", p.name), class: p.name === file ? "current" : "" }, p.name)),
      h("a", { href: `/files/${encodeURIComponent(m.game)}/${encodeURIComponent(file)}` }, "open the PDF"));
    const info = await json(`/api/games/${encodeURIComponent(m.game)}/pages/${encodeURIComponent(file)}`);
    if (!info || current.mounted !== m || info.v === m.v) return;
    m.v = info.v;
    const figures = [...m.pages.querySelectorAll("figure")];
    for (let i = 1; i <= info.pages; i++) {
      let fig = figures[i - 1];
      if (!fig) {
        fig = h("figure", {}, h("img", { loading: "lazy", alt: `page ${i}` }), h("figcaption", {}, `page ${i}`));
        m.pages.append(fig);
      }
      setSrc(fig.querySelector("img"), `/pages/${encodeURIComponent(m.game)}/${encodeURIComponent(file)}/${i}.png?v=${info.v}`);
    }
    figures.slice(info.pages).forEach((f) => f.remove());
  },
};

function documentView(name, missing, extra) {
  return {
    mount(main, route) {
      const links = h("div", { class: "tabs" });
      const frame = h("iframe", { class: "doc", title: name });
      const empty = h("p", { class: "empty" }, missing);
      main.append(links, frame, empty);
      return { game: route.game, frame, empty, links, v: null };
    },
    async update(m) {
      const game = gameState();
      const doc = output(game, name);
      m.links.replaceChildren(...(extra || []).filter((n) => output(game, n)).map((n) => h("a", { href: `/files/${encodeURIComponent(m.game)}/${n}` }, n)));
      m.frame.hidden = !doc;
      m.empty.hidden = !!doc;
      if (!doc || doc.v === m.v) return;
      m.v = doc.v;
      // keep the reader's place in the document across rebuilds
      let y = 0;
      try { y = m.frame.contentWindow.scrollY; } catch (e) { y = 0; }
      m.frame.addEventListener("load", () => { try { m.frame.contentWindow.scrollTo(0, y); } catch (e) { /* not loaded */ } }, { once: true });
      m.frame.src = `/files/${encodeURIComponent(m.game)}/${name}?v=${doc.v}`;
    },
  };
}

views.rulebook = documentView("rulebook.html", "No rulebook built (the game has no rulebook/ chapters, or its build does not make one).", ["rulebook.pdf"]);
views.check = documentView("check.html", "The editor's check is not built for this game.", []);

views.errata = {
  mount(main, route) {
    const links = h("div", { class: "tabs" });
    const text = h("pre", { class: "doc" });
    main.append(links, text);
    return { game: route.game, links, text, v: null };
  },
  async update(m) {
    const game = gameState();
    const md = output(game, "errata.md");
    m.links.replaceChildren(...["errata.pdf", "errata.csv"].filter((n) => output(game, n)).map((n) => h("a", { href: `/files/${encodeURIComponent(m.game)}/${n}` }, n)));
    if (!md) { setText(m.text, "No errata for this game (it has no errata table)."); return; }
    if (md.v === m.v) return;
    m.v = md.v;
    const response = await fetch(`/files/${encodeURIComponent(m.game)}/errata.md?v=${md.v}`);
    setText(m.text, response.ok ? await response.text() : "errata.md could not be read");
  },
};

views.problems = {
  mount(main) {
    const list = h("ul", { class: "plain" });
    main.append(h("h2", {}, "Validation errors and warnings"), list);
    return { list };
  },
  async update(m) {
    const game = gameState();
    m.list.replaceChildren(...(game.diagnostics.length ? game.diagnostics.map(diagItem) : [h("li", { class: "empty" }, "No problems.")]));
  },
};

// ---- live updates ------------------------------------------------------------------------------

function scheduleUpdate() {
  if (updating) { again = true; return; }
  updating = true;
  update().finally(() => {
    updating = false;
    if (again) { again = false; scheduleUpdate(); }
  });
}

async function update() {
  const fresh = await json("/api/state");
  if (!fresh) return;
  state = fresh;
  if (!current) { navigate(); return; }
  drawChrome();
  const view = current.view === "card" ? cardView : views[current.view];
  await view.update(current.mounted);
  document.body.dataset.version = String(state.version);
}

function connect() {
  const source = new EventSource("/events");
  source.addEventListener("change", scheduleUpdate);
  source.addEventListener("open", scheduleUpdate); // after a reconnection, catch up
}

window.addEventListener("hashchange", navigate);
connect();
scheduleUpdate();
