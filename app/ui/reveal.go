package ui

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Long lists built node by node (the findings page, the item page) are
// drawn a chunk per frame: each go-app node costs several calls into
// JavaScript, and 300 findings rows at once blocked the UI thread for
// longer than 100 ms.
const (
	findingsChunk = 60 // findings rows per frame
	itemsChunk    = 5  // item cards per frame
)

// reveal is how many rows of a list are drawn: it starts at chunk and
// grows by chunk every pumpPause until n.
type reveal struct {
	of      any
	n       int
	pending bool
}

// upTo returns how many of n rows of list of to draw now, and schedules
// the next chunk. restart: a new list starts again at chunk (item cards,
// whose update costs what drawing them does); otherwise rows already
// drawn are updated in place (findings rows: a few attributes each).
func (p *Page) upTo(r *reveal, of any, n, chunk int, restart bool) int {
	if r.of != of {
		r.of = of
		if restart || r.n == 0 {
			r.n = chunk
		}
	}
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
