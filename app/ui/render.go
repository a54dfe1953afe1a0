package ui

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"eval752/app/model"
	"eval752/app/ui/wire"
	"eval752/app/version"
)

// Render draws the page: header with the privacy statement, the load zone,
// the summary strip, the tabs and the views (see renderView for which are
// kept in the DOM while hidden).
func (p *Page) Render() app.UI {
	status := p.status
	if status == "" {
		status = StatusStarting
	}
	if p.mounted {
		p.ctx.Defer(p.syncStatus)
		p.ctx.Defer(p.syncHash)
		// decode what the open tab shows (a tab opened by a click, a
		// link or the history): a no-op when it is decoded
		p.ctx.Defer(func(app.Context) { p.pump() })
	}
	root := app.Div().Class("app").
		OnDragOver(p.onDragOver).
		OnDrop(p.onDrop)
	if status != StatusStarting {
		root = root.Attr("data-client", "true")
	}
	if p.res != nil {
		// static/hooks.js asks before a reload or a close throws it away
		root = root.Attr("data-loaded", "true")
	}
	return root.Body(
		app.A().Class("skip").Href("#main").Attr("data-test", "skip-link").Text("Skip to the results").
			OnClick(func(ctx app.Context, e app.Event) {
				// go-app takes over link clicks: move the focus here
				e.PreventDefault()
				if el := app.Window().GetElementByID("main"); el.Truthy() {
					el.Call("focus")
				}
			}),
		app.Header().Class("top").Body(
			app.Div().Class("brand").Body(
				app.Img().Src("/web/icon.svg").Alt("").Class("logo"),
				app.H1().Text("eval752"),
				app.Span().Class("tagline").Text("benchmark validator & scorer"),
			),
			app.P().Class("privacy").Attr("data-test", "privacy").Body(
				app.Strong().Text("Nothing leaves this browser."),
				app.Text(" Your files are read and scored here, by WebAssembly; the server only hosts this page and the page sends no data anywhere."),
			),
		),
		app.Main().Class("content").ID("main").TabIndex(-1).Body(
			p.renderLoad(status),
			app.If(p.res != nil, func() app.UI { return p.renderSummary() }),
			p.renderTabs(),
			app.Section().Class("view").ID("view").Attr("role", "tabpanel").Attr("aria-labelledby", "tab-"+p.currentTab()).Body(
				p.renderView(),
			),
		),
		app.Footer().Class("foot").Body(
			app.Text(fmt.Sprintf("%s %s · runs offline after the first visit · ", version.Name, version.Version)),
			app.Span().Text("keyboard: Tab moves between controls, Enter activates"),
		),
	)
}

func (p *Page) currentTab() string {
	if p.tab == "" {
		return "overview"
	}
	return p.tab
}

func (p *Page) renderLoad(status string) app.UI {
	zone := "drop"
	if p.drag {
		zone += " drag"
	}
	if p.res != nil {
		zone += " compact"
	}
	busy := status == StatusLoading
	// The controls exist only once the UI runs. go-app replaces the
	// server-rendered DOM when the WASM mounts, so a pre-rendered file
	// input would be swapped for a new node under a test that just
	// resolved it (chromedp: "could not find node"); without one, an
	// early query waits for the real control.
	controls := app.Span().Class("muted").Attr("data-test", "starting").Text(" starting the page…")
	if status != StatusStarting {
		// The demo button stays enabled while a load runs: like a new
		// file, it replaces the running load.
		controls = app.Span().Body(
			app.Input().Type("file").ID("file-input").Class("visually-hidden").Multiple(true).
				Attr("data-test", "file-input").OnChange(p.onFiles),
			app.Label().For("file-input").Class("button primary").Text("choose files…"),
			app.Span().Text(" "),
			// a folder keeps its files' paths (runs/<id>/predictions.jsonl
			// names run <id>, as on the command line)
			app.Input().Type("file").ID("folder-input").Class("visually-hidden").Multiple(true).
				Attr("webkitdirectory", "true").Attr("data-test", "folder-input").OnChange(p.onFiles),
			app.Label().For("folder-input").Class("button").Title("a project folder, e.g. seed 003's data/, eval/, runs/").Text("choose a folder…"),
			app.Span().Text(" "),
			app.Button().Class("button").Attr("data-test", "demo-button").Text("load the demo bundle").OnClick(p.loadDemo),
		)
	}
	return app.Section().Class(zone).Attr("aria-label", "load files").Body(
		app.Div().Class("drop-text").Body(
			app.Strong().Text("Drop a .eval752.zip bundle or JSONL / JSON / YAML / TREC files here"),
			app.Span().Text(" — or "),
			controls,
		),
		app.Div().Class("status-line").Attr("aria-live", "polite").Body(
			app.Span().Class("status status-"+status).Attr("data-test", "status").Attr("data-state", status).
				Attr("data-loads", p.loads).Text(p.statusLabel(status)),
			app.If(busy, func() app.UI {
				return app.Span().Class("progress").Body(
					app.Span().Class("stage").Attr("data-test", "stage").Attr("data-stage", p.stage).Text(stageLabel(p.stage)),
					p.progressBar(),
					app.Span().Class("bytes").Attr("data-test", "progress-text").Text(p.progressText()),
					app.Button().Class("button small").Attr("data-test", "cancel").Text("Cancel").OnClick(p.cancel),
				)
			}),
			app.If(status == StatusReady, func() app.UI {
				return app.Span().Class("muted").Text(fmt.Sprintf(" %s in %.2f s (core: %d ms)",
					joinNames(p.names), p.elapsed.Seconds(), p.meta.Millis))
			}),
			app.If(status == StatusError, func() app.UI {
				return app.Span().Class("error-text").Attr("data-test", "error").Text(p.errMsg)
			}),
			app.If(status == StatusError && p.canRetry, func() app.UI {
				return app.Button().Class("button small").Attr("data-test", "retry").Text("Retry").OnClick(p.retry)
			}),
			app.If(p.notice != "", func() app.UI {
				return app.Span().Class("notice").Attr("data-test", "notice").Text(p.notice)
			}),
		),
	)
}

func (p *Page) progressBar() app.UI {
	bar := app.Progress().Class("bar")
	// every phase has its own measure (bytes read; rule passes, scoring
	// and audit steps done; report sections drawn): the bar shows that
	// phase's fraction, and is indeterminate only before the first measure
	// of a phase arrives (never a full bar that looks stuck)
	done, total := p.progress()
	if total > 0 && done < total {
		bar = bar.Max(total).Value(done)
	}
	return bar
}

// progress is the current phase's fraction: what the worker told, or,
// once the result is in, the shown reports' parts decoded of all.
func (p *Page) progress() (done, total int64) {
	if p.stage != "draw" {
		return p.done, p.total
	}
	for _, k := range p.wanted() {
		if l := p.lazy[k]; l != nil {
			done += int64(l.next)
			total += int64(l.nsecs)
		}
	}
	return done, total
}

// progressText is the fraction in the phase's unit.
func (p *Page) progressText() string {
	done, total := p.progress()
	if total <= 0 {
		return ""
	}
	unit := map[string]string{"validate": "rule passes", "score": "scoring steps", "audit": "audit steps", "draw": "report parts"}[p.stage]
	if unit == "" {
		return fmt.Sprintf("%s / %s", humanBytes(done), humanBytes(total))
	}
	return fmt.Sprintf("%d of %d %s", done, total, unit)
}

// statusLabel is the status in words ("ready — 0 errors, 2 warnings"); the
// machine-readable state is the element's data-state.
func (p *Page) statusLabel(status string) string {
	switch status {
	case StatusStarting:
		return "starting…"
	case StatusIdle:
		return "no files loaded yet"
	case StatusLoading:
		return "working…"
	case StatusReady:
		if p.res == nil {
			return "ready"
		}
		c := p.res.Counts
		return "ready — " + plural(c.Error, "error") + ", " + plural(c.Warning, "warning")
	case StatusError:
		return "could not load"
	case StatusCancelled:
		return "cancelled"
	}
	return status
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// stages are the worker's phases in order, with what the page calls them.
var stages = []struct{ id, label string }{
	{"fetch demo", "fetching the demo bundle"},
	{"fetch site", "fetching the site's files"},
	{"read", "reading the files"},
	{"validate", "validating"},
	{"score", "scoring"},
	{"audit", "auditing"},
}

// stageLabel is "step 2 of 4: validating": where the work is, so a full
// bytes bar never reads as done while later phases remain.
func stageLabel(stage string) string {
	if stage == "" {
		stage = "read"
	}
	if stage == "draw" {
		return "drawing the results"
	}
	const fetches = 2 // the first stages: a fetch before the work, not counted
	for i, st := range stages {
		if st.id == stage {
			if i < fetches {
				return st.label
			}
			return fmt.Sprintf("step %d of %d: %s", i-fetches+1, len(stages)-fetches, st.label)
		}
	}
	return stage
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return strconv.FormatInt(n, 10) + " B"
}

func joinNames(ns []string) string {
	switch len(ns) {
	case 0:
		return ""
	case 1:
		return ns[0]
	}
	return fmt.Sprintf("%s and %d more", ns[0], len(ns)-1)
}

// known is n, or "…" while the worker is still computing it (the runs
// come with the scores, the items with the final result).
func (p *Page) known(n int, ok bool) string {
	if !ok {
		return "…"
	}
	return strconv.Itoa(n)
}

func (p *Page) renderSummary() app.UI {
	c := p.res.Counts
	verdict, cls := "passes validation", "ok"
	if c.Error > 0 {
		verdict, cls = "fails validation", "bad"
	}
	return app.Section().Class("summary").Attr("aria-label", "summary").Body(
		app.Div().Class("verdict "+cls).Attr("data-test", "verdict").Text(verdict),
		p.countBox("error", c.Error),
		p.countBox("warning", c.Warning),
		p.countBox("info", c.Info),
		app.Div().Class("stat").Body(
			app.Span().Class("stat-n").Text(strconv.Itoa(len(p.res.Inputs))),
			app.Span().Class("stat-l").Text("files read"),
		),
		app.Div().Class("stat").Body(
			app.Span().Class("stat-n").Text(p.known(len(p.res.Runs), p.has("score") || p.final)),
			app.Span().Class("stat-l").Text("runs"),
		),
		app.Div().Class("stat").Body(
			app.Span().Class("stat-n").Text(p.known(p.meta.Items, p.final)),
			app.Span().Class("stat-l").Text(map[bool]string{true: "scored items", false: "items"}[len(p.res.Runs) > 0]),
		),
	)
}

// countBox is a severity tile: its count, and a click shows those findings.
func (p *Page) countBox(sev string, n int) app.UI {
	return app.Button().Class("stat tile sev-"+sev).Attr("data-test", "tile-"+sev).Attr("data-sev", sev).
		Title("show the "+sev+"s").OnClick(p.onTile).Body(
		app.Span().Class("stat-n").Attr("data-test", "count-"+sev).Text(strconv.Itoa(n)),
		app.Span().Class("stat-l").Text(sev+"s"),
	)
}

func (p *Page) renderTabs() app.UI {
	cur := p.currentTab()
	return app.Nav().Class("tabs").Attr("role", "tablist").Attr("aria-label", "views").Body(
		app.Range(tabs).Slice(func(i int) app.UI {
			t := tabs[i]
			cls := "tab"
			if t.ID == cur {
				cls += " active"
			}
			label := t.Label
			if p.res != nil {
				switch t.ID {
				case "findings":
					c := p.res.Counts
					label += fmt.Sprintf(" (%d)", c.Error+c.Warning+c.Info)
				case "items":
					if p.meta.Items > 0 {
						label += fmt.Sprintf(" (%d)", p.meta.Items)
					}
				}
			}
			tabIndex := -1 // roving tab index: Tab reaches the active tab, arrows move
			if t.ID == cur {
				tabIndex = 0
			}
			return app.Button().Class(cls).ID("tab-"+t.ID).Attr("role", "tab").
				Attr("aria-selected", strconv.FormatBool(t.ID == cur)).
				TabIndex(tabIndex).
				Attr("data-test", "tab-"+t.ID).Text(label).OnClick(p.setTab(t.ID)).
				OnKeyDown(p.tabKey(i))
		}),
	)
}

// renderView draws the views. After a load, Overview, Findings (its first
// page) and Scores are always in the DOM, the inactive ones hidden, so the
// automation hooks (data-test="finding" rows, data-test="metric" cells) can
// be read as soon as the status says "ready", whatever the active tab. The
// score report is its own component (reportView), so keeping it rendered
// costs one pointer comparison per page update. Comparison, Audit, Items,
// Export and Formats are drawn only while their tab is active.
func (p *Page) renderView() app.UI {
	tab := p.currentTab()
	if p.res == nil {
		if tab == "formats" {
			return p.renderFormats()
		}
		return p.renderWelcome()
	}
	// The panels always in the DOM are mounted one per step when a
	// load's result first arrives, the open tab's first: building all
	// their component trees in the render that takes the validated piece
	// was one task of 0.5–2 s on the loaded machine. Until mounted a
	// panel holds a "drawing" placeholder (which "ready" waits for).
	// A panel once mounted stays mounted until the next load, whatever
	// tab is open: counting the panels other than the open tab's (as
	// this did) unmounted the Scores panel when the Comparison tab
	// opened — the only tab whose panels-besides-it are three — and the
	// whole score report was drawn again.
	if p.mountFor != p.evalID || p.panelsUp == nil {
		p.mountFor, p.panelsUp, p.mountNext = p.evalID, map[string]bool{}, false
	}
	left := false
	shown := func(id string) bool {
		switch {
		case id == tab || p.panelsUp[id]:
		case p.mountNext:
			p.mountNext = false
		default:
			left = true
			return false
		}
		p.panelsUp[id] = true
		return true
	}
	panel := func(id string, body func() app.UI) app.UI {
		div := app.Div().Class("panel").Attr("data-panel", id).Hidden(tab != id)
		if !shown(id) {
			return div.Body(app.P().Class("muted pending").Attr("data-drawing", "true").Text("drawing…"))
		}
		return div.Body(body())
	}
	defer func() {
		if left && !p.mountLater && p.mounted {
			p.mountLater = true
			p.later(pumpPause, func() { p.mountLater = false; p.mountNext = true })
		}
	}()
	var lazy app.UI
	switch tab {
	case "compare":
		lazy = app.Div().Body(
			p.renderComparePicker(),
			p.reportPanel("compare", "A comparison needs two runs of the same items; these inputs have "+strconv.Itoa(len(p.res.Runs))+"."),
			// three runs or more: every run against the first, Holm-adjusted
			app.If(p.has("many"), func() app.UI { return p.reportFor("many", "") }),
		)
	case "audit":
		audit := p.report("audit")
		var view app.UI
		switch {
		case p.has("audit") && audit != nil:
			l := p.lazy["audit"]
			view = &reportView{Kind: "audit", Rep: audit, N: len(audit.Sections), Parts: l.next, Done: l.complete(), Unchecked: p.unchecked()}
		case p.has("audit") || !p.final:
			view = p.pendingNote("audit")
		default:
			view = &reportView{Kind: "audit", Empty: "Nothing to audit in these inputs."}
		}
		lazy = app.Div().Body(
			app.If(audit != nil, func() app.UI {
				return app.Div().Class("actions").Body(
					p.exportButton("export-audit-csv", "Download the audit as CSV", "audit", "csv"),
					app.Span().Class("muted").Text(" The audit's own checks (refusal audit, leakage) are counted here and by `eval752 audit`, not in the validation summary above."),
				)
			}),
			app.If(p.drawn("audit"), func() app.UI { return p.renderReviewQueue(audit) }),
			view,
		)
	case "items":
		lazy = p.renderItems()
	case "export":
		lazy = p.renderExport()
	case "formats":
		lazy = p.renderFormats()
	}
	return app.Div().Class("panels").Body(
		panel("overview", p.renderOverview),
		panel("findings", p.findingsPanel),
		panel("scores", func() app.UI {
			return p.reportPanel("score", "Nothing to score: the inputs hold no results, predictions or TREC run.")
		}),
		app.Div().Class("panel").Attr("data-panel", "lazy").Hidden(lazy == nil).Body(lazy),
	)
}

// reportPanel is the report kind as decoded so far; while the load runs
// and the worker has not sent it yet, what the core is doing for it; after
// the load, empty when the result has none.
func (p *Page) reportPanel(kind, empty string) app.UI {
	if !p.has(kind) && !p.final {
		return p.pendingNote(kind)
	}
	return p.reportFor(kind, empty)
}

// unchecked is uncheckedRules for the loaded inputs' formats.
func (p *Page) unchecked() map[string]string {
	formats := map[model.Format]bool{}
	for _, in := range p.res.Inputs {
		formats[model.Format(in.Format)] = true
	}
	return uncheckedRules(formats)
}

func (p *Page) renderWelcome() app.UI {
	return app.Div().Class("welcome").Body(
		app.H2().Text("Check a benchmark before you trust its numbers"),
		app.P().Text("eval752 validates evaluation sets (eval752 bundles, b-2 annotation sets, test set v2, RAG data, TREC qrels and runs) "+
			"and scores the runs in them with confidence intervals and paired comparisons — the same core and the same numbers as the eval752 command line."),
		app.Ul().Body(
			app.Li().Text("Overview: what was loaded, formats, sha256 of every file, counts per split, modality and type."),
			app.Li().Text("Findings: every problem with its file, line and JSON pointer; click one to see the line."),
			app.Li().Text("Scores and comparison: tables with n / denominator and CI, charts with error bars, McNemar and paired tests."),
			app.Li().Text("Items: gold vs retrieved, answer vs reference, with failures-only and differences-only filters."),
			app.Li().Text("Export: the report as JSON, Markdown or CSV, generated in this browser."),
		),
	)
}

// renderComparePicker lets the reviewer choose which two runs are compared
// (the first two by default); the worker recomputes the comparison.
func (p *Page) renderComparePicker() app.UI {
	runs := p.res.Runs
	if len(runs) < 2 {
		return nil
	}
	cur := p.comparedRuns()
	return app.Div().Class("filters").Attr("role", "group").Attr("aria-label", "runs to compare").Body(
		runSelect("c-run-a", "A", cur.A, runs, 0, func(v string) { p.pickRun(true, v) }),
		runSelect("c-run-b", "B", cur.B, runs, 1, func(v string) { p.pickRun(false, v) }),
		app.If(p.cmpBusy != 0, func() app.UI { return app.Span().Class("muted").Text("comparing…") }),
		app.Span().Class("muted").Text("Δ = B − A, paired on the same items"),
	)
}

// comparedRuns is the pair the comparison shows: the reviewer's pick, else
// the first two runs.
func (p *Page) comparedRuns() wire.CompareRequest {
	c := p.cmp
	if c.A == "" || c.B == "" {
		if p.res == nil || len(p.res.Runs) < 2 {
			return c
		}
		c = wire.CompareRequest{A: p.res.Runs[0], B: p.res.Runs[1]}
	}
	return c
}

// pickRun sets run A (or B) of the comparison, reading the other one from
// the state now (a closure's captured pair would be the first render's).
func (p *Page) pickRun(isA bool, v string) {
	c := p.comparedRuns()
	if isA {
		c.A = v
	} else {
		c.B = v
	}
	p.cmp = c
	if c.A == c.B {
		p.notice = "pick two different runs to compare"
		return
	}
	p.notice = ""
	p.compareRuns()
}

// tabKey moves between tabs with the arrow keys, Home and End (the WAI-ARIA
// tabs pattern), selecting the tab and focusing it.
func (p *Page) tabKey(i int) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		j := i
		switch e.Get("key").String() {
		case "ArrowRight":
			j = (i + 1) % len(tabs)
		case "ArrowLeft":
			j = (i + len(tabs) - 1) % len(tabs)
		case "Home":
			j = 0
		case "End":
			j = len(tabs) - 1
		default:
			return
		}
		e.PreventDefault()
		p.setTab(tabs[j].ID)(ctx, e)
		id := "tab-" + tabs[j].ID
		ctx.Defer(func(app.Context) {
			if el := app.Window().GetElementByID(id); el.Truthy() {
				el.Call("focus")
			}
		})
	}
}

// syncStatus makes the status text on the page equal p.status after a
// render. static/hooks.js writes "loading" into that text node the moment
// files are given, but go-app renders once per frame and compares with what
// it rendered last: a load that starts and ends between two frames leaves
// its status unchanged for go-app ("ready" then "ready"), and without this
// the node would keep the hook's "loading".
func (p *Page) syncStatus(ctx app.Context) {
	el := app.Window().Get("document").Call("querySelector", "[data-test=status]")
	if !el.Truthy() {
		return
	}
	want := p.status
	if want == "" {
		want = StatusStarting
	}
	if el.Get("dataset").Get("state").String() != want {
		el.Get("dataset").Set("state", want)
	}
	label := p.statusLabel(want)
	if t := el.Get("firstChild"); t.Truthy() && t.Get("nodeType").Int() == 3 {
		if t.Get("nodeValue").String() != label {
			t.Set("nodeValue", label)
		}
	}
}
