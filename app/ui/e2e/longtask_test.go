//go:build !js

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// longTaskLimit is the longest the UI thread may block (issue 10 item 4):
// the target. A PerformanceObserver('longtask') entry longer than this
// fails the probe only with LONGTASK_STRICT=1: a task's wall time depends
// on the machine's load (on the shared 2-core machine the same step
// measured 50 and 500 ms), and speed is held by benchmarks, not by timed
// tests. Run it strict on a quiet machine.
const longTaskLimit = 100.0 // ms

// The per-render budgets the page documents (docs/ui.md "No long task on
// the UI thread"; app/ui drawCells, findingsChunk, itemsChunk): what
// bounds every UI task whatever the machine. The page records each
// render's new cells / rows in window.__eval752draws (harness probeJS).
const (
	cellsPerRender    = 500 // new figure cells of table HTML per render of a report
	findingsPerRender = 60  // new findings rows per render
	cardsPerRender    = 2   // new item cards per render
)

// longest returns the longest long task that started at or after t0 (a
// performance.now() reading) and how many there were. It first waits for
// the page to settle: no view still drawing in chunks (data-drawing), then
// two animation frames and a pause, so that the observer has delivered
// every entry of what was measured.
func (b *browser) longestSince(t0 float64) (longest float64, count int) {
	b.t.Helper()
	b.waitJS(`!document.querySelector('[data-drawing]')`, 60*time.Second)
	b.waitJS(`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => r(true), 300))))`, 10*time.Second)
	for _, e := range eval[[][]float64](b, `window.__longtasks`) {
		if e[0] >= t0 {
			count++
			longest = max(longest, e[1])
		}
	}
	return longest, count
}

// draws is what the page drew per render during one probe: for each kind
// (a report's kind, "findings", "items") how many renders drew something,
// the most one drew, and the total.
type draws map[string]*drawn

type drawn struct{ renders, most, total int }

func (d draws) String() string {
	var kinds []string
	for k := range d {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var out []string
	for _, k := range kinds {
		out = append(out, fmt.Sprintf("%s %d in %d renders (most %d)", k, d[k].total, d[k].renders, d[k].most))
	}
	return strings.Join(out, "; ")
}

// probe runs act and returns what the page drew per render meanwhile; it
// logs the long tasks (the longest, their count), and fails when the
// longest exceeds longTaskLimit only under LONGTASK_STRICT=1. Every render
// must keep to its budget (cellsPerRender, findingsPerRender,
// cardsPerRender).
func (b *browser) probe(label string, act func()) draws {
	b.t.Helper()
	t0 := eval[float64](b, `performance.now()`)
	from := eval[int](b, `window.__eval752draws.length`)
	start := time.Now()
	b.profiled(label, act)
	took := time.Since(start)
	longest, count := b.longestSince(t0)
	if os.Getenv("LONGTASK_LOGS") != "" {
		b.t.Logf("long tasks: %v", eval[[][]float64](b, `window.__longtasks.filter(e => e[0] >= `+fmt.Sprint(t0)+`)`))
		b.t.Logf("marks: %v", eval[[]string](b, `performance.getEntriesByType('mark').filter(e => e.startTime >= `+fmt.Sprint(t0)+`).map(e => e.name + '@' + Math.round(e.startTime))`))
	}
	d := draws{}
	for _, e := range eval[[][]any](b, fmt.Sprintf(`window.__eval752draws.slice(%d)`, from)) {
		kind, _ := e[0].(string)
		n, _ := e[1].(float64)
		if d[kind] == nil {
			d[kind] = &drawn{}
		}
		d[kind].renders++
		d[kind].total += int(n)
		d[kind].most = max(d[kind].most, int(n))
	}
	b.t.Logf("%s: %v; %d long tasks, longest %.0f ms; drawn: %v", label, took.Round(time.Millisecond), count, longest, d)
	for kind, x := range d {
		limit := cellsPerRender
		switch kind {
		case "findings":
			limit = findingsPerRender
		case "items":
			limit = cardsPerRender
		}
		if x.most > limit {
			b.t.Errorf("%s: one render drew %d new %s (its budget: %d per render)", label, x.most, kind, limit)
		}
	}
	if os.Getenv("LONGTASK_STRICT") != "" && longest > longTaskLimit {
		b.t.Errorf("%s: the UI thread blocked %.0f ms (target %.0f ms; LONGTASK_STRICT)", label, longest, longTaskLimit)
	}
	return d
}

// atLeast fails unless kind was drawn over at least renders renders
// (drawn in pieces, not at once) and, when total > 0, totals at least
// total.
func (b *browser) atLeast(label string, d draws, kind string, renders, total int) {
	b.t.Helper()
	x := d[kind]
	if x == nil {
		b.t.Errorf("%s: nothing of %q drawn", label, kind)
		return
	}
	if x.renders < renders || x.total < total {
		b.t.Errorf("%s: %q drawn as %d in %d renders; want at least %d in at least %d renders", label, kind, x.total, x.renders, total, renders)
	}
}

// TestLongTaskProbe holds what bounds every UI task (issue 10 item 4)
// while (a) the demo loads until "ready", (b) each tab of the demo's
// result opens, (c) the 20k-item bundle of TestLongTaskWhileScoring loads
// until "ready", and while its tables open: the result arrives in pieces,
// no render draws more than its budget of cells, rows or cards, and the
// large tables and the item page reach their full size only over several
// renders. It logs the longest PerformanceObserver longtask of each phase;
// the target (≤ 100 ms) is asserted only with LONGTASK_STRICT=1.
func TestLongTaskProbe(t *testing.T) {
	b := newBrowser(t)
	b.open()
	t0 := eval[float64](b, `performance.now()`)
	d := b.probe("demo: click → ready", func() {
		b.click(`[data-test=demo-button]`)
		b.waitReady(120 * time.Second)
	})
	// the result crossed in pieces: validated, then scored, then the rest
	marks := eval[[]string](b, `performance.getEntriesByType('mark').filter(e => e.startTime >= `+fmt.Sprint(t0)+` && e.name.startsWith('eval752-')).map(e => e.name)`)
	if got := strings.Join(marks, " "); !strings.Contains(got, "eval752-piece-validated eval752-piece-scored eval752-result") {
		t.Errorf("demo: the worker's answers were %q; want the validated piece, the scored piece, then the result", got)
	}
	// the demo's score tables (≈ 4,700 cells) are drawn before ready, over
	// several renders; the findings rows too
	b.atLeast("demo load", d, "score", 2, cellsPerRender+1)
	b.atLeast("demo load", d, "findings", 1, 1)
	defer func() {
		if os.Getenv("LONGTASK_LOGS") != "" {
			t.Log(b.logText())
		}
	}()
	for _, tab := range []string{"findings", "scores", "compare", "audit", "items", "export", "formats", "overview"} {
		d := b.probe("demo: open tab "+tab, func() {
			b.tab(tab)
			b.waitJS(`!!document.querySelector('[data-panel]:not([hidden])')`, 30*time.Second)
		})
		switch tab {
		case "compare": // ≈ 6,300 cells: many renders
			b.atLeast("demo compare tab", d, "compare", 2, cellsPerRender+1)
		case "items": // a page of 25 cards, a few per render
			b.atLeast("demo items tab", d, "items", 2, cardsPerRender+1)
		}
	}
	// every table of the Scores and Comparison reports unfolded at once
	b.tab("scores")
	b.probe("demo: unfold every score section", func() {
		b.do(chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('[data-report=score] details.rfold').forEach(d => d.open = true)`))
	})

	file := filepath.Join(t.TempDir(), "large.eval752.zip")
	largeBundle(t, file, 20000)
	st, _ := os.Stat(file)
	b.tab("overview")
	b.probe(fmt.Sprintf("20000 items × 2 runs (%d KiB zip): upload → ready", st.Size()>>10), func() {
		b.upload(file)
		b.waitReady(180 * time.Second)
	})
	for _, tab := range []string{"findings", "scores", "compare", "audit", "items"} {
		b.probe("20000 items: open tab "+tab, func() {
			b.tab(tab)
			b.waitJS(`!!document.querySelector('[data-panel]:not([hidden])')`, 30*time.Second)
		})
	}
	b.tab("compare")
	b.probe("20000 items: show all disagreement rows", func() {
		if eval[bool](b, `!!document.querySelector('[data-report=compare] [data-test=show-all-rows]')`) {
			b.click(`[data-report=compare] [data-test=show-all-rows]`)
		}
	})
}

// TestProgressiveStates: the demo's overview and findings are on the page
// while the worker still scores (status "loading", the stage past
// validation, the Scores tab saying what is being computed instead of
// showing numbers), and progress names its phase with a fraction. The
// states are written as screenshots to -shots DIR when given (else to a
// temp dir) for a look.
func TestProgressiveStates(t *testing.T) {
	dir := *shots
	if dir == "" {
		dir = t.TempDir()
	}
	b := newBrowser(t)
	b.open()
	shot := func(name string) {
		png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b.click(`[data-test=demo-button]`)
	// the validated piece: overview files and findings rows, while loading
	b.waitJS(`!!document.querySelector('[data-panel=overview] [data-test=input]') && !!document.querySelector('[data-test=finding]')`, 120*time.Second)
	state := eval[string](b, `document.querySelector('[data-test=status]').dataset.state`)
	stage := eval[string](b, `(document.querySelector('[data-test=stage]') || {dataset: {}}).dataset.stage || ''`)
	text := eval[string](b, `(document.querySelector('[data-test=progress-text]') || {}).textContent || ''`)
	t.Logf("overview shown: status %q, stage %q, progress %q", state, stage, text)
	if state != "loading" {
		t.Skipf("the demo finished before its first piece could be seen (status %q); nothing progressive to check", state)
	}
	if stage == "read" || stage == "validate" {
		t.Errorf("overview and findings shown in stage %q: they come after validation", stage)
	}
	shot("progressive-1-overview-while-scoring.png")
	b.tab("scores")
	pending := eval[string](b, `(document.querySelector('[data-panel=scores] [data-test=pending]') || {}).textContent || ''`)
	cells := eval[int](b, `document.querySelectorAll('[data-panel=scores] [data-test=figure]').length`)
	t.Logf("scores tab while loading: %q, %d figures", pending, cells)
	if eval[string](b, `document.querySelector('[data-test=status]').dataset.state`) == "loading" && eval[bool](b, `!document.querySelector('[data-panel=scores] [data-report=score]')`) && pending == "" {
		t.Error("the Scores tab shows neither the report nor what is being computed while loading")
	}
	shot("progressive-2-scores-while-scoring.png")
	b.tab("overview")
	b.waitReady(120 * time.Second)
	shot("progressive-3-ready.png")
	if n := eval[int](b, `document.querySelectorAll('[data-test=pending]').length`); n != 0 {
		t.Errorf("%d \"still to come\" notes left at ready", n)
	}
	// the Comparison tab is drawn over frames: the first tables, then
	// the rest; once drawn whole its article is data-report=compare
	b.tab("compare")
	b.waitJS(`!!document.querySelector('[data-drawing-report=compare], [data-report=compare]')`, 30*time.Second)
	shot("progressive-4-compare-drawing.png")
	b.waitJS(`!!document.querySelector('[data-report=compare]') && !document.querySelector('[data-drawing]')`, 60*time.Second)
	shot("progressive-5-compare-drawn.png")
	t.Logf("screenshots in %s", dir)
}
