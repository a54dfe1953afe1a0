//go:build !js

package e2e

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestReportHeights measures, at 1440×900 with the demo bundle loaded, the
// page height when the Scores and the Comparison views first render (the
// figures docs/ui.md reports). It fails if a report is taller than 30
// viewports: a headline, an index and collapsed sections keep it short.
func TestReportHeights(t *testing.T) {
	b := newBrowser(t)
	b.do(chromedp.EmulateViewport(1440, 900))
	b.open()
	b.click(`[data-test=demo-button]`)
	b.waitReady(60 * time.Second)
	height := func(view, ready string) int {
		b.tab(view)
		b.waitJS(ready, 30*time.Second)
		time.Sleep(500 * time.Millisecond)
		return eval[int](b, `document.documentElement.scrollHeight`)
	}
	sh := height("scores", `!!document.querySelector('[data-report=score]')`)
	ch := height("compare", `!!document.querySelector('[data-report=compare]')`)
	t.Logf("page height at first render, 1440×900, demo bundle: Scores %d px, Comparison %d px", sh, ch)
	for name, h := range map[string]int{"Scores": sh, "Comparison": ch} {
		if h > 30*900 {
			t.Errorf("%s is %d px tall at first render (more than 30 screens)", name, h)
		}
	}
}
