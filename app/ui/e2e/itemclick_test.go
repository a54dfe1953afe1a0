//go:build !js

package e2e

import (
	"fmt"
	"testing"
	"time"
)

// pollJS reports whether js turns true within timeout.
func (b *browser) pollJS(js string, timeout time.Duration) bool {
	for end := time.Now().Add(timeout); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if eval[bool](b, js) {
			return true
		}
	}
	return false
}

// TestItemLinkWhileDrawing: an item's link clicked while the items page's
// cards are still being appended (a few per frame) opens that item — the
// one under the pointer, never another card's and never nothing. Each
// round opens the list anew (show all items), clicks a card's link (by a
// real mouse click at its position) as soon as that card is on the page
// while the later cards are still to come, and checks what opened.
func TestItemLinkWhileDrawing(t *testing.T) {
	b := newBrowser(t)
	b.open()
	b.click(`[data-test=demo-button]`)
	b.waitReady(120 * time.Second)
	b.tab("items")
	b.waitJS(`!!document.querySelector('[data-test=items-count]')`, 30*time.Second)
	cards := eval[int](b, `document.querySelectorAll('[data-test=item]').length`)
	if cards < 8 {
		t.Fatalf("the demo's items page has %d cards; the test needs a page drawn over several frames", cards)
	}
	// what the pointer hit: the link's text, and whether cards were still
	// being drawn then
	eval[bool](b, `(window.__clicks = [], document.addEventListener('click', e => {
		const a = e.target.closest('[data-test=item-link]');
		window.__clicks.push([a ? a.textContent : '(' + e.target.tagName + ')', !!document.querySelector('[data-panel=lazy] [data-drawing]')]);
	}, true), window.__hist = [],
	['pushState', 'replaceState'].forEach(m => { const f = history[m].bind(history); history[m] = (a, b, u) => { window.__hist.push(m + ' ' + u + ' @' + Math.round(performance.now())); return f(a, b, u); }; }),
	addEventListener('popstate', () => window.__hist.push('popstate ' + location.hash + ' @' + Math.round(performance.now()))),
	addEventListener('hashchange', () => window.__hist.push('hashchange ' + location.hash + ' @' + Math.round(performance.now()))),
	document.addEventListener('click', e => window.__hist.push('click ' + e.target.textContent.slice(0, 20) + ' defaultPrevented=' + e.defaultPrevented + ' @' + Math.round(performance.now()))),
	true)`)
	// open the first card, so that "show all items" redraws the list
	b.click(`[data-test=item] [data-test=item-link]`)
	single := `(() => { const c = document.querySelectorAll('[data-test=item]'); return c.length === 1 && c[0].dataset.id === %q })()`
	first := eval[string](b, `window.__clicks[0][0]`)
	b.waitJS(fmt.Sprintf(single, first), 10*time.Second)
	during := 0
	for round, nth := range []int{2, 3, 4, 2, 5, 3} {
		b.click(`[data-test=items-all]`)
		// the nth card is on the page, the page is not drawn whole
		b.waitJS(fmt.Sprintf(`document.querySelectorAll('[data-test=item]').length >= %d && document.querySelectorAll('[data-test=item]').length > 1`, nth), 10*time.Second)
		want := eval[string](b, fmt.Sprintf(`document.querySelectorAll('[data-test=item] [data-test=item-link]')[%d].textContent`, nth-1))
		b.click(fmt.Sprintf(`[data-test=item]:nth-of-type(%d) [data-test=item-link]`, nth))
		clicked := eval[[]any](b, `window.__clicks[window.__clicks.length - 1]`)
		if clicked[0] != want {
			t.Errorf("round %d: the pointer hit %v, not the link of card %d (%q)", round, clicked[0], nth, want)
		}
		if clicked[1] == true {
			during++
		}
		if !b.pollJS(fmt.Sprintf(single, want), 10*time.Second) {
			t.Fatalf("round %d: clicking %q (card %d) did not open it in 10 s: hash %q, cards %v, clicks %v, history %q", round, want, nth, b.hash(),
				eval[[]string](b, `[...document.querySelectorAll('[data-test=item]')].map(c => c.dataset.id)`), eval[[][]any](b, `window.__clicks`), eval[[]string](b, `window.__hist`))
		}
		if h := b.hash(); h == "" {
			t.Errorf("round %d: no state in the URL after opening %q", round, want)
		}
	}
	if during == 0 {
		t.Errorf("no click landed while the cards were being drawn: the test did not test that")
	}
	t.Logf("%d of 6 clicks while the cards were drawn", during)
}
