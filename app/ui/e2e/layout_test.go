//go:build !js

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestNarrowLayout: at 390×844 (a phone) with the demo loaded, no view
// scrolls the page sideways and the charts print their text at 9 px or
// more (the narrow drawing); the status says in words what it is
// ("ready — 0 errors, 0 warnings") while data-state keeps "ready"; the
// skip link is the first stop of the keyboard and moves focus to the
// results; with the system in dark mode the page is dark.
func TestNarrowLayout(t *testing.T) {
	b := newBrowser(t)
	b.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
	b.open()
	// the skip link: first Tab stop, Enter moves focus to the results
	b.do(chromedp.KeyEvent(kb.Tab))
	if got := eval[string](b, `document.activeElement.dataset.test || ""`); got != "skip-link" {
		t.Errorf("first Tab stop is %q, want the skip link", got)
	}
	b.do(chromedp.KeyEvent(kb.Enter))
	b.waitJS(`document.activeElement && document.activeElement.id === 'main'`, 5*time.Second)
	if h := b.hash(); strings.Contains(h, "view=") {
		t.Errorf("the skip link changed the view state: %q", h)
	}
	b.click(`[data-test=demo-button]`)
	b.waitReady(60 * time.Second)
	v := cliValidate(t, env.demo)
	words := fmt.Sprintf("ready — %d errors, %d warnings", v.Counts.Error, v.Counts.Warning)
	if got := eval[string](b, `document.querySelector('[data-test=status]').textContent`); got != words {
		t.Errorf("status reads %q, want %q", got, words)
	}
	if w := eval[int](b, `window.innerWidth`); w != 390 {
		t.Fatalf("viewport %d px wide, want 390", w)
	}
	overflow := func(view string) {
		t.Helper()
		r := eval[[]any](b, `(() => { const d = document.documentElement;
			const wide = [...document.querySelectorAll('body *')].filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.right > d.clientWidth + 1 && !e.closest('.scroll, .code-window, .schema'); })
				.slice(0, 3).map(e => e.tagName + '.' + e.className);
			return [d.scrollWidth - d.clientWidth, wide.join(' ')]; })()`)
		if n, _ := r[0].(float64); n > 0 {
			t.Errorf("%s at 390 px: the page scrolls sideways by %.0f px (wide: %v)", view, n, r[1])
		}
	}
	for _, view := range []string{"overview", "findings", "scores", "compare", "audit", "items", "export", "formats"} {
		b.tab(view)
		time.Sleep(300 * time.Millisecond)
		if view == "compare" || view == "items" || view == "audit" {
			b.waitJS(`!document.querySelector('[data-panel=lazy]') || document.querySelector('[data-panel=lazy]').textContent.length > 0`, 10*time.Second)
			time.Sleep(500 * time.Millisecond)
		}
		overflow(view)
	}
	b.tab("scores")
	px := eval[[]float64](b, `[...document.querySelectorAll('svg.chart')].filter(s => s.getBoundingClientRect().width > 0).map(s => {
		const t = s.querySelector('text.label'); return t ? t.getBoundingClientRect().height : 99; })`)
	if len(px) == 0 {
		t.Fatal("no chart shown on the Scores view at 390 px")
	}
	for i, h := range px {
		if h < 9 {
			t.Errorf("chart %d: label text %.1f px high at 390 px, want ≥ 9", i, h)
			break
		}
	}

	// dark mode
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}}); err != nil {
		t.Fatal(err)
	}
	lum := eval[float64](b, `(() => { const m = getComputedStyle(document.body).backgroundColor.match(/\d+/g).map(Number);
		return (0.2126*m[0] + 0.7152*m[1] + 0.0722*m[2]) / 255; })()`)
	if lum > 0.2 {
		t.Errorf("dark mode: body background luminance %.2f, want a dark page", lum)
	}
}
