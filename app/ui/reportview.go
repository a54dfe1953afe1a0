package ui

import (
	"fmt"
	"html"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"eval752/app/finding"
	"eval752/app/report"
)

// reportView draws one report.Report. It is a component of its own so that
// the page's frequent renders (progress, tab switches, findings pages) cost
// one field comparison for it instead of a walk over thousands of cells:
// go-app re-renders a child component only when an exported field changed.
// Rep is a pointer that stays the same until the next load; the page's
// pump appends decoded sections to it, and N (how many there are now) and
// Done (all are) change as it does, so the view redraws — each table's
// HTML is built once and kept (raw), so a redraw costs the new sections.
type reportView struct {
	app.Compo
	Kind string
	Rep  *report.Report
	N    int // sections of Rep decoded so far
	// Parts is how many parts of Rep are decoded: a part may add rows to
	// the last table without adding a section, and the view redraws
	// that table then too (not only when N or Done change)
	Parts int
	Done  bool   // every section is decoded
	Empty string // shown when Rep is nil
	// Unchecked (audit): rules the inputs could not exercise, with what to
	// load (uncheckedRules)
	Unchecked map[string]string

	shown    *report.Report  // the report expanded refers to
	expanded map[string]bool // long tables the user chose to show whole
	// raw keeps the HTML of each table (and chart) drawn for shown, by
	// section, table, rows and picker state
	raw map[string]string
	// Tables are drawn a few at a time: each render builds new tables
	// until budget cells are spent (step: drawCells, halved while building
	// takes more than twice drawTarget), leaves the rest as "drawing"
	// placeholders (more) and asks for another render after pumpPause
	// (drawTimer).
	ctx     app.Context
	live    bool // mounted in the browser: ctx is usable
	step    int
	budget  int
	charted int // of the budget spent, what went to charts
	// seenParts, seenDone: Parts and Done at the last render; a render
	// that finds new parts decoded (in the pump step that runs it) draws
	// no new table, the draw timer's render does
	seenParts int
	seenDone  bool
	built     time.Duration
	more      bool
	drawTimer bool
	// a long table is drawn with its first rows (firstRows cells' worth)
	// and the rest appended to its <tbody> by the draw timer: rowsIn is
	// how many rows of each table (by its key) are in the DOM, jobs the
	// tables of this render with rows still to append
	rowsIn map[string]int
	jobs   []rowJob

	// nav is what the index, picker and legend list, for the report's
	// first navN sections (navRows rows): a walk over every cell decoded,
	// done again only when a part was added
	nav           navLists
	navN, navRows int
	navRep        *report.Report
	// the picker (Scores, Comparison): only rows of this metric, of this
	// stratum dimension ("split" for split=dev, split=test, or "all"),
	// only this run's columns; "" = every one
	pickMetric, pickStratum, pickRun string
}

// OnMount keeps the component's context for the draw timer.
func (v *reportView) OnMount(ctx app.Context) { v.ctx, v.live = ctx, true }

// OnDismount stops the draw timer's effect.
func (v *reportView) OnDismount() { v.live = false }

// drawTarget is how long one render may spend building tables' HTML (the
// browser then spends several times as long parsing it).
const drawTarget = 12 * time.Millisecond

// drawCells is how many new figure cells one render draws at most (about
// 80 KB of HTML: 10–20 ms for the browser to parse on this machine idle).
const drawCells = 500

func (v *reportView) Render() app.UI {
	if v.Rep == nil {
		return app.P().Class("empty").Attr("data-test", "empty-"+v.Kind).Text(v.Empty)
	}
	// the first render of a report is its skeleton alone (headings,
	// index, legend, the tables as "drawing" placeholders), its tables
	// from the next render on: go-app mounting the skeleton and the
	// browser parsing the first tables' HTML were one task of 114–156 ms
	// on an idle machine when the scored piece arrived
	skeleton := false
	if v.shown != v.Rep {
		v.shown, v.expanded, v.raw, v.rowsIn = v.Rep, nil, nil, nil
		v.pickMetric, v.pickStratum, v.pickRun = "", "", ""
		skeleton = true
	}
	// a render right after a pump step decoded parts is the skeleton of
	// what they added (its sections, the tables as placeholders): the
	// decoding and the browser parsing new tables in one task blocked the
	// UI thread for 80–125 ms on an idle machine
	fresh := skeleton || v.Parts != v.seenParts || v.Done != v.seenDone
	v.seenParts, v.seenDone = v.Parts, v.Done
	if v.step == 0 {
		v.step = drawCells
	}
	v.budget, v.charted, v.built, v.more, v.jobs = v.step, 0, 0, false, v.jobs[:0]
	if fresh {
		v.budget = 0
	}
	ui := v.renderReport(v.Kind, v.Rep)
	if !fresh {
		drawLog(v.Kind, v.step-v.budget-v.charted) // the table cells
	}
	if v.built > 2*drawTarget {
		// a slow machine: fewer cells per render (never more: building
		// the HTML is the cheap part, the browser's parsing of it is
		// what a render's task mostly spends)
		v.step = max(v.step/2, 50)
	}
	// (the render that mounts the view comes before OnMount: its timer
	// finds the view live when it fires)
	if v.more && !v.drawTimer && (v.live || skeleton) {
		v.drawTimer = true
		var f app.Func
		f = app.FuncOf(func(this app.Value, args []app.Value) any {
			f.Release()
			if v.live {
				v.appendRows()
				v.ctx.Dispatch(func(ctx app.Context) { v.drawTimer = false })
			}
			return nil
		})
		app.Window().Call("setTimeout", f, pumpPause.Milliseconds())
	}
	return ui
}

// rowJob is a drawn table with rows left to append.
type rowJob struct {
	key, kind string
	t         report.Table
	rows      [][]report.Cell
}

// appendRows appends, to the tables of jobs whose first rows are in the
// DOM, the next rows up to about drawCells cells in all.
func (v *reportView) appendRows() {
	budget := drawCells
	doc := app.Window().Get("document")
	for _, j := range v.jobs {
		if budget <= 0 {
			return
		}
		from := v.rowsIn[j.key]
		if from == 0 || from >= len(j.rows) {
			continue
		}
		tb := doc.Call("querySelector", `[data-tkey="`+esc(j.key)+`"] tbody`)
		if !tb.Truthy() {
			continue // not drawn yet
		}
		to := from
		// whole rows while they fit; one row alone when it is larger
		// than what is left of a fresh budget
		for to < len(j.rows) && (budget >= len(j.rows[to])+1 || budget == drawCells) {
			budget -= len(j.rows[to]) + 1
			to++
		}
		if to == from {
			break
		}
		tb.Call("insertAdjacentHTML", "beforeend", rowsHTML(j.kind, j.t, j.rows[from:to], v.Unchecked))
		v.rowsIn[j.key] = to
	}
	drawLog(v.Kind, drawCells-budget)
}

// firstRows is how many of rows a table is first drawn with: about
// drawCells cells.
func firstRows(rows [][]report.Cell) int {
	n, cells := 0, 1
	for n < len(rows) && (n == 0 || cells+len(rows[n]) <= drawCells) {
		cells += len(rows[n])
		n++
	}
	return n
}

// drawn reports whether the table under key may be shown now: it was
// built before, or the render's budget allows building it (cells of it).
func (v *reportView) drawable(key string, cells int) bool {
	if _, ok := v.raw[key]; ok {
		return true
	}
	if v.budget < cells && v.budget < v.step {
		// it does not fit in what is left of this render's cells (a
		// table larger than a whole budget is drawn alone, first)
		v.more = true
		return false
	}
	v.budget -= cells
	return true
}

// timedBuild is build, its time counted in v.built.
func (v *reportView) timedBuild(build func() string) func() string {
	return func() string {
		t0 := time.Now()
		h := build()
		v.built += time.Since(t0)
		return h
	}
}

// cached returns the HTML kept under key, building it with build the first
// time.
func (v *reportView) cached(key string, build func() string) string {
	if v.raw == nil {
		v.raw = map[string]string{}
	}
	if h, ok := v.raw[key]; ok {
		return h
	}
	h := build()
	v.raw[key] = h
	return h
}

// renderReport draws any report.Report generically: sections, paragraphs,
// tables (figures with CI, n/denominator, threshold and flag), bar charts
// for tables marked Chart, and notes. kind ("score", "compare", "audit",
// "overview") becomes data-report so tests can tell the reports apart —
// once every section is drawn; while sections are still being decoded
// the article has data-drawing (and data-drawing-report) instead.
func (v *reportView) renderReport(kind string, r *report.Report) app.UI {
	art := app.Article().Class("report")
	body := []app.UI{
		app.H2().Text(r.Title),
		app.If(len(r.Config) > 0, func() app.UI {
			return app.Details().Class("config").Body(
				app.Summary().Text(fmt.Sprintf("Configuration (%d settings) · %s %s", len(r.Config), r.Tool.Name, r.Tool.Version)),
				app.Dl().Body(app.Range(r.Config).Slice(func(i int) app.UI {
					return app.Div().Class("kv").Body(app.Dt().Text(r.Config[i].Key), app.Dd().Text(r.Config[i].Value))
				})),
			)
		}),
		app.If(navigable(kind), func() app.UI { return v.renderIndex(r) }),
		// the picker once every section is in (its lists are the whole
		// report's; its hundred options are not built in the render that
		// mounts the report); until then an empty element of the same kind
		// in its place, so that the sections after it keep theirs (a
		// child inserted before them had go-app mount every section anew,
		// and the rows appended to their tables were lost)
		app.If(navigable(kind) && !v.Done, func() app.UI { return app.Div().Class("picker-slot") }),
		app.If(navigable(kind) && v.Done, func() app.UI { return v.renderPicker(v.navLists(r)) }),
		app.If(navigable(kind), func() app.UI { return app.Raw(v.navLists(r).legend) }),
		app.Range(r.Sections).Slice(func(i int) app.UI {
			if navigable(kind) && i > 0 {
				return v.renderFolded(kind, i, r.Sections[i])
			}
			return v.renderSection(kind, i, r.Sections[i])
		}),
	}
	// drawn whole: every section decoded (Done) and every table built
	if v.Done && !v.more {
		art = art.Attr("data-report", kind)
	} else {
		art = art.Attr("data-drawing-report", kind).Attr("data-drawing", "true")
		body = append(body, app.P().Class("muted pending").Attr("data-test", "pending").Attr("data-piece", kind).Text("drawing the report…"))
	}
	return art.Body(body...)
}

// navigable reports whether a report opens on its headline with the other
// sections folded and a section index (Scores and Comparison: tens of
// thousands of pixels unfolded).
func navigable(kind string) bool { return kind == "score" || kind == "compare" }

// renderIndex is the sticky index of the report's sections: a click opens
// the section and scrolls to it.
func (v *reportView) renderIndex(r *report.Report) app.UI {
	return app.Nav().Class("rindex").Attr("data-test", "report-index").Attr("aria-label", "sections of the report").Body(
		app.Span().Class("muted").Text("Sections: "),
		app.Range(r.Sections).Slice(func(i int) app.UI {
			sec := r.Sections[i]
			title := sec.Title
			if title == "" {
				title = sec.ID
			}
			return app.Button().Class("link idx").Attr("data-test", "section-link").Attr("data-sec", sec.ID).
				Text(title).OnClick(v.onJump)
		}),
	)
}

// renderFolded is a section beyond the headline: folded (<details>, its
// tables in the DOM for the automation hooks, not drawn until opened).
func (v *reportView) renderFolded(kind string, si int, s report.Section) app.UI {
	n := 0
	for _, t := range s.Tables {
		n += len(t.Rows)
	}
	title := s.Title
	if title == "" {
		title = s.ID
	}
	return app.Details().Class("rfold").ID(sectionID(kind, s.ID)).Attr("data-test", "section-fold").Attr("data-sec", s.ID).Open(v.picking()).Body(
		app.Summary().Body(app.Span().Class("fold-title").Text(title),
			app.Span().Class("muted").Text(fmt.Sprintf(" · %d tables, %d rows", len(s.Tables), n))),
		v.renderSection(kind, si, s),
	)
}

func sectionID(kind, sec string) string {
	return "sec-" + kind + "-" + strings.NewReplacer(".", "-", " ", "-").Replace(sec)
}

// onJump opens the section the index button names and scrolls to it.
func (v *reportView) onJump(ctx app.Context, e app.Event) {
	sec := dataOf(ctx, "sec")
	doc := app.Window().Get("document")
	el := doc.Call("querySelector", `[data-report="`+v.Kind+`"] [data-sec="`+sec+`"]:is(details, section)`)
	if !el.Truthy() {
		return
	}
	if el.Get("tagName").String() == "DETAILS" {
		el.Set("open", true)
	}
	el.Call("scrollIntoView", map[string]any{"block": "start"})
}

// navLists are the metrics, stratum dimensions and runs of a report's
// figures (for the picker; the runs name the charts' colours), in the
// order the tables list them (metrics sorted), and the chart legend's
// HTML.
type navLists struct {
	metrics, dims, runs []string
	legend              string
}

// navLists returns the lists of r as decoded now, walking its cells only
// when a section was added since the last walk.
func (v *reportView) navLists(r *report.Report) navLists {
	rows := 0 // a decoded part adds a section or rows to the last one
	for _, sec := range r.Sections {
		for _, t := range sec.Tables {
			rows += len(t.Rows)
		}
	}
	if v.navRep == r && v.navN == len(r.Sections) && v.navRows == rows {
		return v.nav
	}
	v.navRep, v.navN, v.navRows = r, len(r.Sections), rows
	var nl navLists
	seen := map[string]bool{}
	add := func(list *[]string, kind, x string) {
		if x != "" && !seen[kind+x] {
			seen[kind+x] = true
			*list = append(*list, x)
		}
	}
	for _, sec := range r.Sections {
		for _, t := range sec.Tables {
			for _, row := range t.Rows {
				for _, c := range row {
					if c.Metric == "" {
						continue
					}
					add(&nl.metrics, "m", c.Metric)
					add(&nl.dims, "d", stratumDim(c.Stratum))
					add(&nl.runs, "r", c.Run)
				}
			}
		}
	}
	sort.Strings(nl.metrics)
	nl.legend = chartLegend(nl.runs)
	v.nav = nl
	return nl
}

// chartLegend says how the charts read: a colour per run (named, in the
// order the tables list them), CI whiskers, the target line, pass / FAIL as
// a mark and a word, not a colour alone.
func chartLegend(runs []string) string {
	// one swatch per entry, as HTML that wraps on a narrow screen
	sw := func(svg string) string {
		return `<svg class="sw" viewBox="0 0 40 16" width="40" height="16" aria-hidden="true">` + svg + `</svg>`
	}
	var b strings.Builder
	for i, run := range runs {
		if i == 6 {
			break
		}
		fmt.Fprintf(&b, `<span class="lg">%s %s</span>`, sw(fmt.Sprintf(`<rect class="bar run-%d" x="2" y="3" width="30" height="10" rx="2"/>`, i)), esc(run))
	}
	fmt.Fprintf(&b, `<span class="lg">%s 95 %% CI</span>`, sw(`<line class="err" x1="4" y1="8" x2="36" y2="8"/><line class="err" x1="4" y1="3" x2="4" y2="13"/><line class="err" x1="36" y1="3" x2="36" y2="13"/>`))
	fmt.Fprintf(&b, `<span class="lg">%s target</span>`, sw(`<line class="target" x1="20" y1="1" x2="20" y2="15"/>`))
	b.WriteString(`<span class="lg"><span class="mark-pass">✓</span> pass</span><span class="lg"><span class="mark-fail">✗ FAIL</span> misses its target</span>`)
	return `<div class="legend" data-test="chart-legend" role="note" aria-label="chart legend">` + b.String() + `</div>`
}

func (v *reportView) renderSection(kind string, si int, s report.Section) app.UI {
	banner := ""
	if kind == "audit" {
		banner = auditBanner(s.ID, v.Unchecked)
	}
	return app.Section().Class("rsection").Attr("data-section", s.ID).Body(
		app.If(s.Title != "", func() app.UI { return app.H3().Text(s.Title) }),
		app.If(banner != "", func() app.UI {
			return app.P().Class("not-checked").Attr("data-test", "not-checked").Text(banner)
		}),
		app.Range(s.Text).Slice(func(i int) app.UI { return app.P().Text(s.Text[i]) }),
		app.Range(s.Tables).Slice(func(i int) app.UI { return v.renderTable(kind, fmt.Sprintf("%d/%d", si, i), s.Tables[i]) }),
		app.If(len(s.Notes) > 0, func() app.UI {
			return app.Ul().Class("notes").Body(app.Range(s.Notes).Slice(func(i int) app.UI {
				return app.Li().Text(s.Notes[i])
			}))
		}),
	)
}

// maxRows is how many rows a table shows before a "show all" button. The
// comparison's disagreement list and the audit's tables have a row per item
// or pair (10k rows for a 20k-item set, seconds of DOM work): they show
// 300. Every other table has one row per metric × stratum, whatever the
// number of items, so it shows up to 2,000 rows and every figure is on the
// page without a click (the demo's retrieval tables have 370 rows).
func maxRows(kind, table string) int {
	switch {
	case kind == "audit", table == "disagreements.items":
		return 300 // one row per item or pair
	}
	return 2000
}

// renderPicker offers the metrics, stratum dimensions and runs of the
// report; a pick keeps the matching rows (and run columns) of every table
// and opens every section.
func (v *reportView) renderPicker(nl navLists) app.UI {
	metrics, dims, runs := nl.metrics, nl.dims, nl.runs
	return app.Div().Class("filters picker").Attr("role", "group").Attr("aria-label", "pick figures").Body(
		selectBox("p-metric-"+v.Kind, "metric", v.pickMetric, metrics, func(x string) { v.pickMetric = x }),
		selectBox("p-stratum-"+v.Kind, "stratum", v.pickStratum, dims, func(x string) { v.pickStratum = x }),
		app.If(len(runs) > 1, func() app.UI {
			return selectBox("p-run-"+v.Kind, "run", v.pickRun, runs, func(x string) { v.pickRun = x })
		}),
		app.If(v.picking(), func() app.UI {
			return app.Span().Class("muted").Text("showing the matching rows of every section")
		}),
	)
}

func (v *reportView) picking() bool {
	return v.pickMetric != "" || v.pickStratum != "" || v.pickRun != ""
}

// stratumDim is the dimension of a stratum: "split" for "split=dev",
// "all" for "all".
func stratumDim(st string) string {
	if i := strings.IndexByte(st, '='); i > 0 {
		return st[:i]
	}
	return st
}

// picked is t with only the rows and run columns the picker keeps.
func (v *reportView) picked(t report.Table) report.Table {
	if !v.picking() {
		return t
	}
	keep := make([]bool, len(t.Columns))
	for j, c := range t.Columns {
		keep[j] = v.pickRun == "" || !strings.HasPrefix(c.Key, "run:") || c.Key == "run:"+v.pickRun
	}
	out := t
	out.Columns = nil
	for j, c := range t.Columns {
		if keep[j] {
			out.Columns = append(out.Columns, c)
		}
	}
	out.Rows = nil
	for _, row := range t.Rows {
		match, figures := false, false
		for _, c := range row {
			if c.Metric == "" {
				continue
			}
			figures = true
			if (v.pickMetric == "" || c.Metric == v.pickMetric) && (v.pickStratum == "" || stratumDim(c.Stratum) == v.pickStratum) &&
				(v.pickRun == "" || c.Run == "" || c.Run == v.pickRun) {
				match = true
			}
		}
		if !figures && v.pickMetric == "" && v.pickStratum == "" {
			match = true // a table without figures (counts, definitions) stays
		}
		if !match {
			continue
		}
		var nr []report.Cell
		for j, c := range row {
			if j < len(keep) && keep[j] {
				nr = append(nr, c)
			}
		}
		out.Rows = append(out.Rows, nr)
	}
	return out
}

func (v *reportView) renderTable(kind, at string, t report.Table) app.UI {
	if navigable(kind) && v.picking() {
		at += "/pick:" + v.pickMetric + "|" + v.pickStratum + "|" + v.pickRun
		t = v.picked(t)
		if len(t.Rows) == 0 {
			return nil
		}
	}
	key := kind + "/" + t.ID
	rows := t.Rows
	hidden := 0
	if limit := maxRows(kind, t.ID); len(rows) > limit && !v.expanded[key] {
		hidden = len(rows) - limit
		rows = rows[:limit]
	}
	tkey := fmt.Sprintf("%s/%d", at, len(rows))
	first := rows[:firstRows(rows)]
	cells := 1
	for _, row := range first {
		cells += len(row)
	}
	if !v.drawable(tkey, cells) {
		// drawn in a later frame
		return app.Div().Class("rtable pending").Attr("data-drawing", "true").Attr("data-pending-table", t.ID).Body(
			app.If(t.Title != "", func() app.UI { return app.H4().Text(t.Title) }),
			app.P().Class("muted").Text("drawing…"),
		)
	}
	if v.rowsIn == nil {
		v.rowsIn = map[string]int{}
	}
	if _, ok := v.rowsIn[tkey]; !ok {
		v.rowsIn[tkey] = len(first)
	}
	div := app.Div().Class("rtable").Attr("data-table", t.ID).Attr("data-tkey", tkey)
	if v.rowsIn[tkey] < len(rows) {
		// rows still to append (the draw timer does)
		v.jobs = append(v.jobs, rowJob{key: tkey, kind: kind, t: t, rows: rows})
		v.more = true
		div = div.Attr("data-drawing", "true")
	}
	// (a chart is keyed by its table's rows too: drawn again when a
	// decoded part added rows to it)
	chart := false
	if ck := at + "/chart/" + strconv.Itoa(len(t.Rows)); t.Chart {
		_, was := v.raw[ck]
		chart = v.drawable(ck, chartCells(t))
		if chart && !was {
			v.charted += chartCells(t)
		}
	}
	return div.Body(
		app.If(t.Title != "", func() app.UI { return app.H4().Text(t.Title) }),
		// the charts count in the render's budget (building and parsing
		// the SVG of 80 bars cost as much as a table's first rows); until
		// drawn each holds a placeholder, so that the table after them
		// keeps its place (its raw HTML and appended rows stay)
		app.If(t.Chart && !chart, func() app.UI {
			return app.P().Class("muted pending").Attr("data-drawing", "true").Text("drawing the chart…")
		}),
		app.If(t.Chart && !chart, func() app.UI { return app.Span() }),
		app.If(t.Chart && chart, func() app.UI {
			return app.Raw(v.cached(at+"/chart/"+strconv.Itoa(len(t.Rows)), v.timedBuild(func() string { return chartSVG(t, false) })))
		}),
		// a narrow drawing (labels above the bars) for small screens:
		// the wide one scaled to 390 px would print 4 px text
		app.If(t.Chart && chart, func() app.UI {
			return app.Raw(v.cached(at+"/narrow/"+strconv.Itoa(len(t.Rows)), v.timedBuild(func() string { return chartSVG(t, true) })))
		}),
		app.If(kind == "audit" && t.ID == "refusal-distribution", func() app.UI {
			return app.Raw(v.cached(at+"/plot", v.timedBuild(func() string {
				th, ok := v.configNumber("refusal_threshold")
				return refusalPlot(t, th, ok)
			})))
		}),
		app.Raw(v.cached(tkey, v.timedBuild(func() string { return tableHTML(kind, t, first, v.Unchecked) }))),
		app.If(hidden > 0, func() app.UI {
			return app.Button().Class("button small").Attr("data-test", "show-all-rows").Attr("data-key", key).
				Text(fmt.Sprintf("show all %d rows (%d more)", len(t.Rows), hidden)).
				OnClick(v.onShowAll)
		}),
		app.If(len(t.Notes) > 0, func() app.UI {
			return app.Ul().Class("notes").Body(app.Range(t.Notes).Slice(func(i int) app.UI {
				return app.Li().Text(t.Notes[i])
			}))
		}),
	)
}

// chartBarCells is what one bar of a chart counts in a render's budget of
// cells: its two drawings (wide and narrow) are about a dozen SVG
// elements, 1.8 KB of HTML, as much as six to eight figure cells (the
// demo's score report: 146 KB for a chart of 80 bars, 116 KB for 500
// cells); at 6 the largest chart (maxBars) fits in one render's budget.
const chartBarCells = 6

// chartCells is what t's charts count in a render's budget: its bars
// (chartSVG draws at most maxBars) times chartBarCells.
func chartCells(t report.Table) int {
	return chartBars(t) * chartBarCells
}

// chartBars is how many bars chartSVG draws for t: its metric figures
// with a finite value, at most maxBars.
func chartBars(t report.Table) int {
	n := 0
	for _, row := range t.Rows {
		for j, c := range row {
			if c.Metric != "" && c.Value != nil && !math.IsNaN(*c.Value) && !math.IsInf(*c.Value, 0) && j < len(t.Columns) {
				n++
				if n == maxBars {
					return n
				}
			}
		}
	}
	return n
}

// configNumber reads a number from the report's configuration.
func (v *reportView) configNumber(key string) (float64, bool) {
	for _, kv := range v.Rep.Config {
		if kv.Key == key {
			f, err := strconv.ParseFloat(kv.Value, 64)
			return f, err == nil
		}
	}
	return 0, false
}

// onShowAll expands the table the clicked button names (data-key; see
// Page.exportButton on why handlers read the element, not a closure).
func (v *reportView) onShowAll(ctx app.Context, e app.Event) {
	if v.expanded == nil {
		v.expanded = map[string]bool{}
	}
	v.expanded[dataOf(ctx, "key")] = true
}

// FullValue is the data-value of a figure: the float64 printed with the
// shortest representation that reads back to the same value (strconv 'g',
// -1), so tests compare exactly; "" for a missing value.
func FullValue(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'g', -1, 64)
}

// tableHTML renders t's header and rows as one HTML string, inserted with
// app.Raw: a score or comparison report holds thousands of figure cells,
// and building them node by node through syscall/js blocked the page for
// seconds; one innerHTML assignment takes milliseconds. Every text and
// attribute is escaped; the markup has no script and no inline style (the
// CSP forbids both).
func tableHTML(kind string, t report.Table, rows [][]report.Cell, unchecked map[string]string) string {
	var b strings.Builder
	b.WriteString(`<div class="scroll"><table class="grid"><thead><tr>`)
	for _, c := range t.Columns {
		if c.Help != "" {
			svgf(&b, `<th scope="col" class="has-help" title="%s">%s</th>`, txt(c.Help), txt(c.Label))
		} else {
			svgf(&b, `<th scope="col">%s</th>`, txt(c.Label))
		}
	}
	b.WriteString(`</tr></thead><tbody>`)
	writeRows(&b, kind, t, rows, unchecked)
	b.WriteString(`</tbody></table></div>`)
	return b.String()
}

// rowsHTML is the <tr> elements of rows of t (appended to a drawn table).
func rowsHTML(kind string, t report.Table, rows [][]report.Cell, unchecked map[string]string) string {
	var b strings.Builder
	writeRows(&b, kind, t, rows, unchecked)
	return b.String()
}

func writeRows(b *strings.Builder, kind string, t report.Table, rows [][]report.Cell, unchecked map[string]string) {
	for _, row := range rows {
		b.WriteString(`<tr>`)
		label := "" // the row's label: tells apart rows of one metric (p50 / p95, sum / mean)
		if len(row) > 0 && row[0].Metric == "" && row[0].Value == nil {
			label = row[0].Text
		}
		for j, c := range row {
			if j >= len(t.Columns) {
				break
			}
			if t.Columns[j].Key == "item" && c.Metric == "" && c.Value == nil && c.Text != "" && itemTables[t.ID] {
				// an item of the comparison or the audit: a link to it
				// in the Items view (a state hash, see urlstate.go)
				svgf(b, `<td><a class="item-link" data-test="item-link" href="%s">%s</a></td>`, esc(itemHref(c.Text)), esc(c.Text))
				continue
			}
			if note := unchecked[label]; note != "" && kind == "audit" && t.Columns[j].Key == "count" && c.Value != nil && *c.Value == 0 {
				// 0 findings of a rule that could not run: say so
				var cell strings.Builder
				writeCell(&cell, kind, t.ID, t.Columns[j].Key, label, c, j == 0)
				b.WriteString(strings.TrimSuffix(cell.String(), "</td>"))
				svgf(b, `<span class="badge unchecked" data-test="not-checked" data-code="%s">%s</span></td>`, esc(label), esc(note))
				continue
			}
			writeCell(b, kind, t.ID, t.Columns[j].Key, label, c, j == 0)
		}
		b.WriteString(`</tr>`)
	}
}

var esc = html.EscapeString

// txt is esc for text the reader sees (cells, labels, tooltips): control
// characters show escaped (finding.Inert), as in the CLI's text output.
// The data-* hooks keep the raw value.
func txt(s string) string { return html.EscapeString(finding.Inert(s)) }

// itemTables are the tables whose "item" column names an item id.
var itemTables = map[string]bool{"disagreements.items": true, "missing.items": true}

// writeCell writes one table cell: a header or text cell, or a figure with
// its CI, n/denominator, threshold badge and flag, carrying the automation
// hooks (data-test="metric" for a cell naming its metric, "figure" for other
// numbers such as counts and p-values, both with data-metric, data-stratum,
// data-run, data-value at full precision, data-row, the row's label, and
// data-column, the table column: they tell apart figures of one metric,
// such as a sum and a mean, p50 and p95, or McNemar's b, c and p).
func writeCell(b *strings.Builder, kind, table, column, row string, c report.Cell, first bool) {
	if c.Metric == "" && c.Value == nil {
		if first {
			svgf(b, `<th scope="row">%s</th>`, txt(c.Text))
		} else {
			svgf(b, `<td>%s</td>`, txt(c.Text))
		}
		return
	}
	hook := "metric"
	if c.Metric == "" {
		hook = "figure"
	}
	svgf(b, `<td class="fig" data-test="%s"`, hook)
	// an attribute whose value would be empty (no stratum, no run, a
	// figure without a value — null in score --json) is left out
	for _, a := range [...][2]string{{"report", kind}, {"table", table}, {"row", row}, {"column", column},
		{"metric", c.Metric}, {"stratum", c.Stratum}, {"run", c.Run}, {"value", FullValue(c.Value)}} {
		if a[1] != "" {
			svgf(b, ` data-%s="%s"`, a[0], esc(a[1]))
		}
	}
	b.WriteString(`>`)
	d := c.Digits
	if d == 0 {
		d = 4
	}
	svgf(b, `<span class="v">%s</span>`, txt(c.FormatValue()))
	if c.CILow != nil && c.CIHigh != nil {
		svgf(b, `<span class="ci" title="confidence interval"> [%s, %s]</span>`,
			strconv.FormatFloat(*c.CILow, 'f', d, 64), strconv.FormatFloat(*c.CIHigh, 'f', d, 64))
	}
	if c.N != nil {
		n := "n=" + strconv.Itoa(*c.N)
		title := "items that contributed a value"
		if c.Denom != nil {
			n += "/" + strconv.Itoa(*c.Denom)
			title += " / annotated items of the stratum"
		}
		svgf(b, `<span class="n" title="%s"> %s</span>`, title, n)
	}
	if c.Threshold != "" {
		cls, word := "badge", c.Threshold
		if c.Pass != nil {
			if *c.Pass {
				cls, word = "badge pass", "pass "+c.Threshold
			} else {
				cls, word = "badge fail", "FAIL "+c.Threshold
			}
		}
		svgf(b, `<span class="%s">%s</span>`, cls, txt(word))
	}
	if c.Flag != "" {
		svgf(b, `<span class="badge flag">%s</span>`, txt(c.Flag))
	}
	b.WriteString(`</td>`)
}

// bar is one bar of a chart.
type bar struct {
	run           int // the run's index in the table (its colour); -1 none
	target        float64
	hasTarget     bool
	metric        string
	label         string
	v, lo, hi     float64
	hasCI         bool
	pass, hasPass bool
	flag          string
	display       string
}

// chartSVG draws horizontal bars with error bars, one per figure of t (at
// most maxBars), in one panel per metric so each metric gets its own scale (a
// rate in [0, 1] and a cost in dollars do not share an axis). A panel's
// scale is [0, 1] when every value and bound lies in it, otherwise it spans
// the data and 0. Colours come from CSS classes; there is no inline style
// (the CSP forbids it).
// narrow draws for small screens: each label above its bar, 360 units
// wide, so a 390 px screen shows the text at about 10 px.
func chartSVG(t report.Table, narrow bool) string {
	var bars []bar
	metricCols := 0
	for j := range t.Columns {
		for _, row := range t.Rows {
			if j < len(row) && row[j].Metric != "" {
				metricCols++
				break
			}
		}
	}
	runIdx := map[string]int{}
	for _, row := range t.Rows {
		if len(bars) == maxBars {
			break // the rest is not drawn: not even looked at
		}
		rowLabel := ""
		if len(row) > 0 && row[0].Metric == "" {
			rowLabel = row[0].Text
		}
		for j, c := range row {
			// Only metric figures are charted: counts and p-values beside
			// them have no common scale with the metric.
			if c.Metric == "" || c.Value == nil || math.IsNaN(*c.Value) || math.IsInf(*c.Value, 0) || j >= len(t.Columns) || len(bars) == maxBars {
				continue
			}
			// Label: the row (unless it only repeats the metric, which
			// names the panel), the stratum when the row does not say it,
			// and the column when several columns hold figures.
			var parts []string
			if rowLabel != "" && rowLabel != c.Metric {
				parts = append(parts, rowLabel)
			}
			if c.Stratum != "" && c.Stratum != "all" && !strings.Contains(rowLabel, c.Stratum) && !strings.Contains(t.Title, c.Stratum) {
				parts = append(parts, c.Stratum)
			}
			if metricCols > 1 || len(parts) == 0 {
				parts = append(parts, t.Columns[j].Label)
			}
			l := strings.Join(parts, " · ")
			b := bar{metric: c.Metric, label: l, v: *c.Value, lo: *c.Value, hi: *c.Value, display: c.FormatValue(), flag: c.Flag}
			if c.CILow != nil && c.CIHigh != nil && !math.IsNaN(*c.CILow) && !math.IsNaN(*c.CIHigh) {
				b.lo, b.hi, b.hasCI = *c.CILow, *c.CIHigh, true
			}
			if c.Pass != nil {
				b.hasPass, b.pass = true, *c.Pass
			}
			b.run = -1
			if c.Run != "" {
				if _, ok := runIdx[c.Run]; !ok {
					runIdx[c.Run] = len(runIdx)
				}
				b.run = runIdx[c.Run]
			}
			if c.Threshold != "" {
				if tv, err := strconv.ParseFloat(targetRe.FindString(c.Threshold), 64); err == nil {
					b.target, b.hasTarget = tv, true
				}
			}
			bars = append(bars, b)
		}
	}

	if len(bars) == 0 {
		return "<div></div>"
	}
	// Panels: one per metric, in first-seen order.
	var order []string
	panels := map[string][]bar{}
	for _, b := range bars {
		if _, ok := panels[b.metric]; !ok {
			order = append(order, b.metric)
		}
		panels[b.metric] = append(panels[b.metric], b)
	}
	labelW, plotW, valueW, rowH, headH, axisH := 270.0, 420.0, 130.0, 22.0, 20.0, 22.0
	barTop := 4.0 // the bar's offset in its row
	cls := "chart chart-wide"
	if narrow {
		labelW, plotW, valueW, rowH = 0, 250, 110, 34
		barTop = 16
		cls = "chart chart-narrow"
	}
	width := labelW + plotW + valueW
	height := 0.0
	for _, m := range order {
		height += headH + rowH*float64(len(panels[m])) + axisH
	}
	var s strings.Builder
	title := t.Title
	if title == "" {
		title = t.ID
	}
	svgf(&s, `<svg class="%s" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %.0f %.0f" role="img" aria-label="%s">`,
		cls, width, height, txt("chart: "+title))
	svgf(&s, `<title>%s</title>`, txt(title))
	y0 := 0.0
	for _, m := range order {
		pb := panels[m]
		lo, hi := 0.0, 0.0
		for _, b := range pb {
			lo = math.Min(lo, math.Min(b.v, b.lo))
			hi = math.Max(hi, math.Max(b.v, b.hi))
			if b.hasTarget {
				lo, hi = math.Min(lo, b.target), math.Max(hi, b.target)
			}
		}
		if lo >= 0 && hi <= 1 {
			lo, hi = 0, 1
		}
		if hi == lo {
			hi = lo + 1
		}
		x := func(v float64) float64 { return labelW + (v-lo)/(hi-lo)*plotW }
		name := m
		if name == "" {
			name = "value"
		}
		svgf(&s, `<text class="panel" x="%.1f" y="%.1f">%s</text>`, labelW, y0+14, txt(name))
		top := y0 + headH
		bottom := top + rowH*float64(len(pb))
		for _, v := range niceTicks(lo, hi) {
			gx := x(v.v)
			svgf(&s, `<line class="grid-line" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, gx, top, gx, bottom)
			svgf(&s, `<text class="axis" x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, gx, bottom+13, v.label)
		}
		zero := x(0)
		for i, b := range pb {
			y := top + rowH*float64(i)
			// the colour says the run; pass / FAIL is a mark and a word
			// beside the value, not a colour
			cls := "bar"
			if b.run >= 0 {
				cls += " run-" + strconv.Itoa(b.run%6)
			}
			x0, x1 := math.Min(zero, x(b.v)), math.Max(zero, x(b.v))
			label := b.label
			if len([]rune(label)) > 40 {
				label = string([]rune(label)[:39]) + "…"
			}
			tip := b.label + ": " + b.display
			if b.hasCI {
				tip += fmt.Sprintf(" [%s, %s]", strconv.FormatFloat(b.lo, 'g', 4, 64), strconv.FormatFloat(b.hi, 'g', 4, 64))
			}
			if b.flag != "" {
				tip += " (" + b.flag + ")"
			}
			svgf(&s, `<g><title>%s</title>`, txt(tip))
			barH := 14.0
			if narrow {
				svgf(&s, `<text class="label" x="%.1f" y="%.1f">%s</text>`, 0.0, y+12, txt(label))
			} else {
				barH = rowH - 8
				svgf(&s, `<text class="label" x="%.1f" y="%.1f" text-anchor="end">%s</text>`, labelW-8, y+rowH*0.68, txt(label))
			}
			svgf(&s, `<rect class="%s" x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="2"/>`, cls, x0, y+barTop, math.Max(x1-x0, 1), barH)
			if b.hasCI {
				cy := y + barTop + barH/2
				svgf(&s, `<line class="err" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, x(b.lo), cy, x(b.hi), cy)
				svgf(&s, `<line class="err" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, x(b.lo), cy-5, x(b.lo), cy+5)
				svgf(&s, `<line class="err" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, x(b.hi), cy-5, x(b.hi), cy+5)
			}
			if b.hasTarget {
				tx := x(b.target)
				svgf(&s, `<line class="target" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, tx, y+barTop-3, tx, y+barTop+barH+3)
			}
			mark := ""
			if b.hasPass {
				if b.pass {
					mark = `<tspan class="mark-pass"> ✓</tspan>`
				} else {
					mark = `<tspan class="mark-fail"> ✗ FAIL</tspan>`
				}
			}
			svgf(&s, `<text class="value" x="%.1f" y="%.1f">%s%s</text></g>`, labelW+plotW+8, y+barTop+barH*0.8, txt(b.display), mark)
		}
		if lo < 0 {
			svgf(&s, `<line class="zero" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, zero, top, zero, bottom)
		}
		y0 = bottom + axisH
	}
	s.WriteString(`</svg>`)
	return s.String()
}

// svgf writes format with args to b as fmt.Fprintf would, for the verbs
// chartSVG uses (%s, %d, %.Nf, %%): a chart of 80 bars made 2,000
// Fprintf calls, 30–70 ms in WebAssembly on the UI thread, most of it
// in fmt's machinery (TestSvgfMatchesFmt holds it to fmt's output).
func svgf(b *strings.Builder, format string, args ...any) {
	var num [32]byte
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			b.WriteByte(c)
			continue
		}
		start := i
		i++
		prec := -1
		switch {
		case format[i] == '%':
			b.WriteByte('%')
			continue
		case format[i] == '.' && i+2 < len(format) && format[i+1] >= '0' && format[i+1] <= '9' && format[i+2] == 'f':
			prec = int(format[i+1] - '0')
			i += 2
		}
		a := args[0]
		args = args[1:]
		switch x := a.(type) {
		case string:
			if format[i] == 's' {
				b.WriteString(x)
				continue
			}
		case int:
			if format[i] == 'd' {
				b.Write(strconv.AppendInt(num[:0], int64(x), 10))
				continue
			}
		case float64:
			if prec >= 0 {
				b.Write(strconv.AppendFloat(num[:0], x, 'f', prec, 64))
				continue
			}
		}
		// any other verb or argument: fmt's (a verb without flags)
		fmt.Fprintf(b, format[start:i+1], a)
	}
}

// maxBars is the most bars a chart draws.
const maxBars = 80

// targetRe finds the number of a threshold ("≥ 0.90" → 0.90).
var targetRe = regexp.MustCompile(`[-+]?[0-9]*\.?[0-9]+`)

type tick struct {
	v     float64
	label string
}

// niceTicks returns four to seven axis ticks over [lo, hi] at a round step
// (1, 2 or 5 × 10^k) with as many decimals as the step needs: 0, 500,
// 1000, … rather than 724, 1.45e+03.
func niceTicks(lo, hi float64) []tick {
	span := hi - lo
	if !(span > 0) || math.IsInf(span, 0) {
		return []tick{{lo, strconv.FormatFloat(lo, 'g', 3, 64)}}
	}
	raw := span / 6 // the smallest round step ≥ span/6 gives 4 to 7 ticks
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	dec := 0
	if step < 1 {
		dec = int(math.Ceil(-math.Log10(step) - 1e-9))
	}
	var out []tick
	for v := math.Ceil(lo/step-1e-9) * step; v <= hi+step*1e-9; v += step {
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		out = append(out, tick{v, strconv.FormatFloat(v, 'f', dec, 64)})
	}
	return out
}
