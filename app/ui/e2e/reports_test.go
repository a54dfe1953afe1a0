//go:build !js

package e2e

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"eval752/app/report"
)

// TestNavigableReports: the Scores view opens on its headline (the first
// section) with a section index, a legend and every other section folded;
// every score figure of the CLI is still on the page (folded sections keep
// their cells); the index opens a section; the picker keeps one metric's
// rows; the headline charts mark pass / FAIL with a sign and a word and draw
// target lines; the comparison's disagreements link to their items.
func TestNavigableReports(t *testing.T) {
	var rep report.Report
	if err := json.Unmarshal(cli(t, env.demo, "score", "--json"), &rep); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	b.do(chromedp.EmulateViewport(1440, 900))
	b.open()
	b.upload(env.demo)
	b.waitReady(60 * time.Second)
	b.tab("scores")
	sel := `[data-panel=scores] `
	if n := eval[int](b, `document.querySelectorAll('`+sel+`[data-test=section-link]').length`); n != len(rep.Sections) {
		t.Errorf("the index links %d sections, the report has %d", n, len(rep.Sections))
	}
	folds := eval[[]bool](b, `[...document.querySelectorAll('`+sel+`[data-test=section-fold]')].map(d => d.open)`)
	if len(folds) != len(rep.Sections)-1 {
		t.Errorf("%d folded sections, want every section but the headline (%d)", len(folds), len(rep.Sections)-1)
	}
	for i, open := range folds {
		if open {
			t.Errorf("section %d is open at first render", i+1)
		}
	}
	if eval[string](b, `getComputedStyle(document.querySelector('`+sel+`[data-test=report-index]')).position`) != "sticky" {
		t.Error("the section index is not sticky")
	}
	if !eval[bool](b, `!!document.querySelector('`+sel+`[data-test=chart-legend]')`) {
		t.Error("no chart legend")
	}
	// pass / FAIL: the headline has thresholds; each judged bar carries ✓ or ✗ FAIL
	head := rep.Sections[0]
	judged, fails := 0, 0
	for _, tb := range head.Tables {
		if !tb.Chart {
			continue
		}
		for _, row := range tb.Rows {
			for _, c := range row {
				if c.Metric != "" && c.Value != nil && c.Pass != nil {
					judged++
					if !*c.Pass {
						fails++
					}
				}
			}
		}
	}
	marks := eval[[]int](b, `(() => { const s = document.querySelector('`+sel+`[data-section="`+head.ID+`"]');
		return [s.querySelectorAll('svg.chart-wide .mark-pass').length, s.querySelectorAll('svg.chart-wide .mark-fail').length, s.querySelectorAll('svg.chart-wide .target').length]; })()`)
	if judged == 0 || marks[0]+marks[1] != judged || marks[1] != fails || marks[2] < judged {
		t.Errorf("headline charts: %d ✓, %d ✗ FAIL, %d target lines; the CLI headline has %d judged figures, %d failing", marks[0], marks[1], marks[2], judged, fails)
	}
	compareCells(t, "scores (folded sections included)", b.pageCells("score"), reportCells(&rep))

	// the index opens a folded section
	last := rep.Sections[len(rep.Sections)-1].ID
	b.click(sel + `[data-test=section-link][data-sec="` + last + `"]`)
	b.waitJS(`document.querySelector('`+sel+`[data-test=section-fold][data-sec="`+last+`"]').open`, 5*time.Second)

	// the picker: one metric
	metric := eval[string](b, `document.querySelector('#p-metric-score').options[1].value`)
	b.choose(`#p-metric-score`, metric)
	b.waitJS(fmt.Sprintf(`[...document.querySelectorAll('%s[data-test=metric]')].every(e => e.dataset.metric === %q) && document.querySelectorAll('%s[data-test=metric]').length > 0`, sel, metric, sel), 10*time.Second)
	want := 0
	for _, c := range reportCells(&rep) {
		if c.Metric == metric {
			want++
		}
	}
	if got := eval[int](b, `document.querySelectorAll('`+sel+`[data-test=metric]').length`); got != want {
		t.Errorf("picker %s: %d figures shown, the CLI report has %d", metric, got, want)
	}
	b.choose(`#p-metric-score`, "")

	// comparison: a disagreement links to its item
	b.tab("compare")
	b.waitJS(`!!document.querySelector('[data-report=compare] [data-table="disagreements.items"] [data-test=item-link]')`, 30*time.Second)
	id := eval[string](b, `document.querySelector('[data-report=compare] [data-table="disagreements.items"] [data-test=item-link]').textContent`)
	eval[bool](b, `(document.querySelector('[data-report=compare] [data-table="disagreements.items"] [data-test=item-link]').click(), true)`)
	b.waitTab("items")
	b.waitJS(fmt.Sprintf(`(() => { const c = document.querySelectorAll('[data-test=item]'); return c.length === 1 && c[0].dataset.id === %q })()`, id), 10*time.Second)
}
