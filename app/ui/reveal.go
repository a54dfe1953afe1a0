package ui

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"eval752/app/finding"
	"eval752/app/ui/wire"
)

// Long lists built node by node (the findings page, the item page) are
// drawn a chunk per frame: each go-app node costs several calls into
// JavaScript, and 300 findings rows at once blocked the UI thread for
// longer than 100 ms.
const (
	findingsChunk = 60 // findings rows per frame
	itemsChunk    = 2  // item cards per frame
)

// reveal is how many rows of a list are drawn: it starts at chunk and
// grows by chunk every pumpPause until n.
type reveal struct {
	of      any
	n       int
	pending bool
	drawn   int // rows returned by the last upTo of this list (for drawLog)
}

// drawLog records, when the page was opened by a test that asks for it
// (window.__eval752draws is an array), what one render drew: a report's
// new table cells, a list's new rows or cards. The e2e tests hold the
// per-frame budgets with it (TestLongTaskProbe); a normal page has no
// such array and records nothing.
func drawLog(what string, n int) {
	if n <= 0 || !app.IsClient {
		return
	}
	if a := app.Window().Get("__eval752draws"); a.Truthy() {
		a.Call("push", app.ValueOf([]any{what, n}))
	}
}

// upTo returns how many of n rows of list of to draw now, and schedules
// the next chunk. restart: a new list starts again at chunk (item cards,
// whose update costs what drawing them does); otherwise rows already
// drawn are updated in place (findings rows: a few attributes each).
func (p *Page) upTo(what string, r *reveal, of any, n, chunk int, restart bool) int {
	if r.of != of {
		r.of = of
		if restart || r.n == 0 {
			// rows kept from the last list are updated in place, not
			// drawn anew: only a restart counts them again
			r.n, r.drawn = chunk, 0
		}
	}
	shown := min(r.n, n)
	if shown > r.drawn {
		drawLog(what, shown-r.drawn)
	}
	r.drawn = shown
	if r.n >= n {
		return n
	}
	if !r.pending && p.mounted {
		r.pending = true
		p.later(pumpPause, func() {
			r.pending = false
			r.n += chunk
		})
	}
	return r.n
}

// revealed: every row of the list r draws, of n, is drawn.
func (r *reveal) revealed(n int) bool { return r.n >= n }

// later runs fn on the UI goroutine (then draws the page) after d, from a
// JavaScript timer. Not a Go timer (ctx.After): when drawing a chunk took
// longer than d, Go runs a timer that is already due before it returns to
// the browser, so chunk after chunk would make one long task; a JS timer
// always waits for the browser's next task.
func (p *Page) later(d time.Duration, fn func()) {
	var f app.Func
	f = app.FuncOf(func(this app.Value, args []app.Value) any {
		f.Release()
		p.ctx.Dispatch(func(ctx app.Context) { fn() })
		return nil
	})
	app.Window().Call("setTimeout", f, d.Milliseconds())
}

// findingsView is the findings page as a component of its own, so that
// the page's frequent renders (a progress message every 50 ms while the
// worker scores) cost a comparison of these fields instead of a walk over
// 300 rows. Its fields are everything renderFindings reads; its event
// handlers change the page's state and redraw this component (and the
// URL, which the page's render would otherwise sync).
type findingsView struct {
	app.Compo
	P    *Page
	Pg   *wire.FindingPage
	Sel  *finding.Finding
	Win  *wire.LineWindow
	Q    wire.FindingQuery
	N    int
	Idx  int
	ctx  app.Context
	live bool
}

func (v *findingsView) OnMount(ctx app.Context) { v.ctx, v.live = ctx, true }
func (v *findingsView) OnDismount()             { v.live = false }

func (v *findingsView) Render() app.UI {
	if v.live {
		v.ctx.Defer(v.P.syncHash)
	}
	return v.P.renderFindings()
}

// findingsPanel is the findings page's component with the page's state.
func (p *Page) findingsPanel() app.UI {
	return &findingsView{P: p, Pg: p.fpage, Sel: p.sel, Win: p.win, Q: p.fq, N: p.findRows.n, Idx: p.selIdx}
}
