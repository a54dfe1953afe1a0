package ui

import (
	"encoding/json"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"eval752/app/report"
	"eval752/app/ui/wire"
)

// lazyReport is a report as the worker sent it (wire.SplitReport: a head
// and parts of at most wire.RowsPerPart rows), decoded a few parts at a
// time by the page's pump so that no task on the UI thread decodes, or
// draws, a whole large report at once.
type lazyReport struct {
	kind string
	head string
	// parts are still in a JavaScript Uint8Array (one is copied into Go
	// only when it is decoded), part i at offs[i]..offs[i+1]; nsecs how
	// many there are
	secs  app.Value
	offs  []int
	nsecs int
	j     *wire.Joiner
	rep   *report.Report // the head and what is complete so far (j.R)
	next  int            // parts decoded
	err   string
}

func newLazy(kind, head string, secs app.Value, offsets string) *lazyReport {
	l := &lazyReport{kind: kind, head: head, secs: secs}
	if secs.Truthy() && json.Unmarshal([]byte(offsets), &l.offs) == nil && len(l.offs) > 0 {
		l.nsecs = len(l.offs) - 1
	}
	return l
}

// part copies part i out of the JavaScript array.
func (l *lazyReport) part(i int) string {
	b := make([]byte, l.offs[i+1]-l.offs[i])
	app.CopyBytesToGo(b, l.secs.Call("subarray", l.offs[i], l.offs[i+1]))
	return string(b)
}

// complete: the head and every part are decoded (or decoding failed).
func (l *lazyReport) complete() bool {
	return l.err != "" || (l.rep != nil && l.next >= l.nsecs)
}

// step decodes the head (first call) or the next part and returns the
// number of cells it decoded (a measure of what drawing it costs).
func (l *lazyReport) step() int {
	if l.complete() {
		return 0
	}
	if l.rep == nil {
		j, err := wire.NewJoiner(l.head)
		if err != nil {
			l.err = "reading the " + l.kind + " report: " + err.Error()
			return 0
		}
		if l.kind == "overview" {
			// the page lists the files itself (with their hooks); keep
			// the report's counts only
			j.R.Title = "Items per split, modality and type"
			j.Drop = "inputs"
		}
		l.j, l.rep = j, j.R
		return 1
	}
	cells, err := l.j.Add(l.part(l.next))
	l.next++
	if err != nil {
		l.err = "reading the " + l.kind + " report: " + err.Error()
	}
	return cells
}

// setReport keeps the report kind the worker sent in msg (its head in
// msg[kind], its parts in msg[kind+"_sections"] and msg[kind+"_offsets"]),
// replacing an earlier one.
func (p *Page) setReport(kind string, msg app.Value) {
	head := msg.Get(kind)
	if head.Type() != app.TypeString {
		return
	}
	offs := ""
	if v := msg.Get(kind + wire.OffsetsSuffix); v.Type() == app.TypeString {
		offs = v.String()
	}
	p.lazy[kind] = newLazy(kind, head.String(), msg.Get(kind+wire.SectionsSuffix), offs)
}

// has reports whether the result has a report of kind (decoded or not).
func (p *Page) has(kind string) bool {
	return p.lazy[kind] != nil
}

// drawn reports whether the report of kind is decoded whole (true too when
// there is none).
func (p *Page) drawn(kind string) bool {
	l := p.lazy[kind]
	return l == nil || l.complete()
}

// The pump's pace: each step decodes parts until it has about
// pumpCells cells or pumpBudget passed, then waits pumpPause, in which
// go-app draws what was decoded and the browser handles input. go-app
// draws at its next frame, a Go timer one frame after the step began: a
// step that runs past it has the drawing done in the same task (one task
// of decode + draw, 370 ms on the loaded machine when a step was 25 ms of
// 200-row parts), so a step stays well inside a frame.
const (
	pumpCells  = 400
	pumpBudget = 15 * time.Millisecond
	pumpPause  = 40 * time.Millisecond
)

// wanted are the reports the page shows now: the overview and the scores
// (their panels are always in the DOM) and the open tab's.
func (p *Page) wanted() []string {
	w := []string{"overview", "score"}
	switch p.currentTab() {
	case "compare":
		w = append(w, "compare", "many")
	case "audit":
		w = append(w, "audit")
	}
	return w
}

// pump schedules the next decoding step when a report shown is not
// complete, and turns the status to "ready" once everything the load
// waits for is in.
func (p *Page) pump() {
	if !p.mounted || p.pumping {
		return
	}
	more := false
	for _, k := range p.wanted() {
		more = more || !p.drawn(k)
	}
	if !more {
		p.maybeReady()
		return
	}
	p.pumping = true
	p.later(pumpPause, func() {
		p.pumping = false
		if p.lazy == nil {
			return
		}
		start, cells := time.Now(), 0
		for _, k := range p.wanted() {
			l := p.lazy[k]
			for l != nil && !l.complete() && cells < pumpCells && time.Since(start) < pumpBudget {
				head := l.rep == nil
				cells += l.step()
				if head {
					// the render after this step mounts the report's
					// view: with no section in it yet (its sections,
					// from the next step on, are mounted in tasks of
					// their own)
					break
				}
			}
			if l != nil && l.err != "" {
				p.notice = l.err
			}
		}
		p.pump()
	})
}

// reportFor is the reportView of the report kind, decoded so far.
func (p *Page) reportFor(kind, empty string) app.UI {
	l := p.lazy[kind]
	if l == nil {
		return &reportView{Kind: kind, Empty: empty}
	}
	if l.rep == nil {
		return p.pendingNote(kind)
	}
	return &reportView{Kind: kind, Rep: l.rep, N: len(l.rep.Sections), Parts: l.next, Done: l.complete()}
}

// pending is what a section still to come shows: what the core is doing
// for it (never a placeholder of made-up content).
func (p *Page) pendingNote(kind string) app.UI {
	what := map[string]string{"score": "scoring…", "compare": "comparing the runs…", "many": "comparing the runs…",
		"audit": "auditing…", "overview": "counting…"}[kind]
	if p.lazy[kind] != nil {
		what = "drawing the " + kind + " report…"
	}
	return app.P().Class("muted pending").Attr("data-test", "pending").Attr("data-piece", kind).Attr("data-drawing", "true").Text(what)
}

// warmUp runs, once the page is idle after it starts, the code a result
// needs first — decoding a split report, building a table's and a chart's
// HTML — on a one-cell report made here and thrown away. V8 compiles a
// WebAssembly function when it is first called, on the UI thread; without
// this, that compilation falls inside the task that takes the first
// result piece. Nothing of it is shown.
func (p *Page) warmUp() {
	p.later(time.Second, func() {
		v := 0.5
		n := 1
		r := &report.Report{Kind: "score", Title: "warm-up", Config: []report.KV{{Key: "k", Value: "v"}},
			Sections: []report.Section{{ID: "s", Tables: []report.Table{{ID: "t", Chart: true,
				Columns: []report.Column{{Key: "metric", Label: "metric"}, {Key: "run:a", Label: "a"}},
				Rows:    [][]report.Cell{{{Text: "m"}, {Metric: "m", Run: "a", Stratum: "all", Value: &v, CILow: &v, CIHigh: &v, N: &n}}}}}}},
		}
		head, parts, err := wire.SplitReport(r)
		if err != nil {
			return
		}
		got, err := wire.JoinReport(head, parts)
		if err != nil || len(got.Sections) == 0 {
			return
		}
		t := got.Sections[0].Tables[0]
		_ = tableHTML("score", t, t.Rows, nil) + rowsHTML("score", t, t.Rows, nil) + chartSVG(t, false)
		var pg wire.FindingPage
		_ = json.Unmarshal([]byte(`{"total":0,"matches":0,"offset":0,"findings":[],"codes":[],"paths":[]}`), &pg)
	})
}
