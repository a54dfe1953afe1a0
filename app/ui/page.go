// Package ui is the eval752 page: a go-app v10 component tree that shows the
// engine.Result the core worker computes. It holds no metric or rule logic:
// every number on the page is a report.Cell the core produced, rendered
// generically, so the page and `eval752 score --json` cannot disagree.
//
// The heavy work runs in a Web Worker (wasm/worker, protocol in app/ui/wire);
// this package only posts the user's File objects to it and renders answers.
package ui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"eval752/app/finding"
	"eval752/app/inputinfo"
	"eval752/app/report"
	"eval752/app/ui/wire"
)

var registerOnce sync.Once

// Register routes "/" to the page. Both the server (pre-rendering) and the
// browser entry point (wasm/app) call it; calling it twice is harmless.
func Register() {
	registerOnce.Do(func() {
		app.Route("/", func() app.Composer { return &Page{} })
	})
}

// Status values shown in data-test="status". "ready" means a load finished
// validating and scoring; tests wait for it.
const (
	StatusStarting  = "starting" // server-rendered, WASM not running yet
	StatusIdle      = "idle"     // page running, nothing loaded
	StatusLoading   = "loading"
	StatusReady     = "ready"
	StatusError     = "error"
	StatusCancelled = "cancelled"
)

// Tabs, in display order.
var tabs = []struct{ ID, Label string }{
	{"overview", "Overview"},
	{"findings", "Findings"},
	{"scores", "Scores"},
	{"compare", "Comparison"},
	{"audit", "Audit"},
	{"items", "Items"},
	{"export", "Export"},
	{"formats", "Formats"},
}

// Page is the whole application: load zone, summary, and tabbed views.
type Page struct {
	app.Compo

	ctx     app.Context
	mounted bool // OnMount ran (in the browser): ctx is usable
	// the result's panels are mounted one per step (renderView): those
	// in panelsUp are, for the load mountFor; mountNext lets the next
	// render mount one more
	panelsUp   map[string]bool
	mountFor   int
	mountNext  bool
	mountLater bool
	worker     app.Value
	onMsg      app.Func
	deliver    app.Func // hooks.js's way in for a dropped folder
	onErr      app.Func
	ready      bool
	// workerFailed: the worker reported an error (e.g. its WASM did not
	// load); the next load restarts it.
	workerFailed bool
	// working is true from posting an evaluation until its result or error.
	working bool
	queue   []map[string]any
	nextID  int
	evalID  int
	// readyFind is the id of the findings request sent with a result; its
	// answer turns the status to "ready".
	readyFind int

	status  string
	loads   int // loads started; data-loads lets tests tell one load's "ready" from the next
	errMsg  string
	notice  string
	stage   string
	done    int64
	total   int64
	started time.Time
	elapsed time.Duration

	names []string
	res   *wire.Result
	meta  wire.ResultMeta
	tab   string
	drag  bool

	// lazy holds the reports as the worker sent them, decoded a few
	// parts at a time by pump (lazy.go); pumping: a step is scheduled.
	// final: the load's Result arrived (before it, a report not yet sent
	// is still being computed; after it, one that is absent has none).
	lazy    map[string]*lazyReport
	pumping bool
	final   bool
	// findReady: the findings page "ready" waits for arrived
	findReady bool
	// rows of the findings page and item cards drawn so far (reveal.go)
	findRows, itemRows reveal

	fq    wire.FindingQuery
	fpage *wire.FindingPage
	sel   *finding.Finding
	win   *wire.LineWindow
	// selIdx is the open finding's index in the filtered, sorted list;
	// pickFinding (-1: none) one to open when its page arrives (a link).
	selIdx, pickFinding int

	// URL state (urlstate.go): a deep link's state waiting for a result,
	// what the hash last held, the popstate listener.
	pending            *viewState
	lastView, lastItem string
	// hashSeen is the location's hash as the page last wrote or applied
	// it (syncHash, followHash): another one is a link go-app followed or
	// Back / Forward, still to apply
	hashSeen     string
	lastFinding  int
	onPop, onKey app.Func

	iq    wire.ItemQuery
	ipage *wire.ItemPage
	// the raw-record view of one item: its id, the line and the findings
	// on that line, and the ids of their requests
	rawItem               string
	rawWin                *wire.LineWindow
	rawFinds              finding.List
	rawLinesID, rawFindID int
	rawLine               int

	// cmp names the compared runs once the reviewer picked them ("" =
	// the first two); cmpBusy is the id of a comparison being computed.
	cmp     wire.CompareRequest
	cmpBusy int

	review reviewState // verdicts on the refusal review queue (review.go)
	// The worker's end (see died): retry re-runs the last load (lastFiles
	// and lastNames as evaluate got them, or the demo); heard is when the
	// worker last posted anything, for the watchdog.
	canRetry  bool
	lastFiles app.Value
	lastNames app.Value
	lastDemo  bool
	heard     time.Time
}

// watchdogDefault is how long a load may go without any message from the
// worker before the page gives it up as hung (eval752Test.watchdogMs
// overrides it). The core posts progress while it reads and at each stage;
// a single stage of a very large input can take minutes, hence the margin.
const watchdogDefault = 10 * time.Minute

// OnMount starts the core worker; it only runs in the browser.
func (p *Page) OnMount(ctx app.Context) {
	if !app.IsClient {
		return
	}
	p.ctx, p.mounted = ctx, true
	p.status = StatusIdle
	if p.tab == "" {
		p.tab = "overview"
	}
	p.pickFinding = -1
	p.watchHistory()
	p.startWorker()
	p.takeEarlyAction()
	p.warmUp()
}

// takeEarlyAction loads what the user gave the server-rendered page before
// this UI was running (static/hooks.js recorded it): files from the input or
// a drop, or a click on the demo button.
func (p *Page) takeEarlyAction() {
	hooks := app.Window().Get("eval752Hooks")
	if !hooks.Truthy() {
		return
	}
	// a dropped folder's files come once hooks.js has walked it
	if p.deliver != nil {
		p.deliver.Release()
	}
	p.deliver = app.FuncOf(func(this app.Value, args []app.Value) any {
		if len(args) > 0 {
			act := args[0]
			p.ctx.Dispatch(func(ctx app.Context) { p.takeAction(act) })
		}
		return nil
	})
	hooks.Set("deliver", p.deliver)
	if act := hooks.Call("take"); act.Truthy() {
		p.takeAction(act)
		return
	}
	p.startSite()
}

// startSite loads the files a published site names in its page
// (<meta name="eval752-bundle" content=URL data-name=NAME>, written by
// `eval752 export-static --bundle`): fetched from the page's own origin,
// then evaluated like files the user picked. A page without them does
// nothing.
func (p *Page) startSite() {
	metas := app.Window().Get("document").Call("querySelectorAll", `meta[name="eval752-bundle"]`)
	n := metas.Length()
	if n == 0 {
		return
	}
	p.status, p.errMsg, p.stage, p.done, p.total = StatusLoading, "", "fetch site", 0, 0
	p.readyFind = 0
	p.evalID = -1
	p.started = time.Now()
	files := make([]app.Value, n)
	left := n
	for i := 0; i < n; i++ {
		i, url := i, metas.Index(i).Call("getAttribute", "content").String()
		name := metas.Index(i).Call("getAttribute", "data-name").String()
		then(app.Window().Call("fetch", url), func(resp app.Value) {
			if !resp.Get("ok").Bool() {
				p.fail(fmt.Sprintf("the site's file %s is not available (HTTP %d)", name, resp.Get("status").Int()))
				return
			}
			then(resp.Call("blob"), func(blob app.Value) {
				p.ctx.Dispatch(func(ctx app.Context) {
					files[i] = app.Window().Get("File").New([]any{blob}, name)
					if left--; left > 0 {
						return
					}
					arr := app.Window().Get("Array").New()
					for _, f := range files {
						arr.Call("push", f)
					}
					p.evaluate(arr, app.Null()) // each File carries its name
				})
			}, p.fail)
		}, p.fail)
	}
}

// takeAction runs an action hooks.js recorded: {kind: "demo"}, {kind:
// "files", files, names?} (names: the paths of a dropped folder's files) or
// {kind: "error", message}.
func (p *Page) takeAction(act app.Value) {
	switch act.Get("kind").String() {
	case "demo":
		p.startDemo()
	case "files":
		files := act.Get("files")
		if !files.Truthy() || files.Length() == 0 {
			p.failLoad(emptyFolder)
			return
		}
		p.status = StatusLoading
		p.evaluate(app.Window().Get("Array").Call("from", files), act.Get("names"))
	case "error":
		p.failLoad(act.Get("message").String())
	}
}

// OnDismount stops the worker.
func (p *Page) OnDismount() {
	p.mounted = false
	p.stopWorker()
	if p.onPop != nil {
		app.Window().Call("removeEventListener", "popstate", p.onPop)
		p.onPop.Release()
		p.onPop = nil
	}
	if p.onKey != nil {
		app.Window().Get("document").Call("removeEventListener", "keydown", p.onKey)
		p.onKey.Release()
		p.onKey = nil
	}
	if p.deliver != nil {
		if hooks := app.Window().Get("eval752Hooks"); hooks.Truthy() {
			hooks.Set("deliver", nil)
		}
		p.deliver.Release()
		p.deliver = nil
	}
}

func (p *Page) startWorker() {
	p.ready = false
	p.worker = app.Window().Get("Worker").New("/web/worker.js")
	p.onMsg = app.FuncOf(func(this app.Value, args []app.Value) any {
		if len(args) == 0 {
			return nil
		}
		data := args[0].Get("data")
		p.ctx.Dispatch(func(ctx app.Context) { p.onMessage(data) })
		return nil
	})
	p.workerFailed = false
	p.onErr = app.FuncOf(func(this app.Value, args []app.Value) any {
		msg := "the core worker failed"
		if len(args) > 0 && args[0].Get("message").Truthy() {
			msg += ": " + args[0].Get("message").String()
		}
		p.ctx.Dispatch(func(ctx app.Context) { p.died(msg) })
		return nil
	})
	p.worker.Set("onmessage", p.onMsg)
	p.worker.Set("onerror", p.onErr)
}

func (p *Page) stopWorker() {
	if p.worker == nil {
		return
	}
	p.worker.Call("terminate")
	p.worker = nil
	if p.onMsg != nil {
		p.onMsg.Release()
		p.onMsg = nil
	}
	if p.onErr != nil {
		p.onErr.Release()
		p.onErr = nil
	}
	p.ready = false
	p.working = false
	p.queue = nil
}

// send posts m to the worker, or queues it until the worker said "ready"
// (messages posted before its Go main listens would be lost).
func (p *Page) send(m map[string]any) int {
	p.nextID++
	m["id"] = p.nextID
	if !p.ready || p.worker == nil {
		p.queue = append(p.queue, m)
		return p.nextID
	}
	p.worker.Call("postMessage", m)
	return p.nextID
}

func (p *Page) sendJSON(typ string, v any) int {
	b, _ := json.Marshal(v)
	return p.send(map[string]any{"type": typ, "json": string(b)})
}

func (p *Page) onMessage(data app.Value) {
	typ := data.Get("type").String()
	id := 0
	if v := data.Get("id"); v.Type() == app.TypeNumber {
		id = v.Int()
	}
	payload := ""
	if v := data.Get("json"); v.Type() == app.TypeString {
		payload = v.String()
	}
	p.heard = time.Now()
	if typ != wire.TypeProgress {
		// a timeline mark per answer ("eval752-piece-validated"), so a
		// long task can be told apart from the message that caused it
		// (TestLongTaskProbe logs them with LONGTASK_LOGS=1)
		mark := "eval752-" + typ
		if v := data.Get("piece"); v.Type() == app.TypeString {
			mark += "-" + v.String()
		}
		app.Window().Get("performance").Call("mark", mark)
	}
	switch typ {
	case wire.TypeDied:
		p.died(data.Get("message").String())
	case wire.TypeReady:
		p.ready = true
		q := p.queue
		p.queue = nil
		for _, m := range q {
			p.worker.Call("postMessage", m)
		}
	case wire.TypeProgress:
		if id != p.evalID {
			return
		}
		var pr struct {
			Stage string `json:"stage"`
			Done  int64  `json:"done"`
			Total int64  `json:"total"`
		}
		if json.Unmarshal([]byte(payload), &pr) == nil {
			p.stage, p.done, p.total = pr.Stage, pr.Done, pr.Total
		}
	case wire.TypePiece:
		if id != p.evalID || p.status != StatusLoading {
			return
		}
		if !p.takeHeader(payload) {
			return
		}
		for _, k := range wire.Reports {
			p.setReport(k, data)
		}
		if v := data.Get("findings"); v.Type() == app.TypeString && p.pending == nil {
			// the first findings page, shown while scoring goes on
			var pg wire.FindingPage
			if json.Unmarshal([]byte(v.String()), &pg) == nil {
				p.fpage = &pg
			}
		}
		if data.Get("piece").String() == "validated" {
			p.stage, p.done, p.total = "score", 0, 0
		}
		p.pump()
	case wire.TypeResult:
		if id != p.evalID {
			return
		}
		if !p.takeHeader(payload) {
			return
		}
		if v := data.Get("meta"); v.Type() == app.TypeString {
			json.Unmarshal([]byte(v.String()), &p.meta)
		}
		p.working = false
		p.final = true
		p.stage = "draw"
		for _, k := range wire.Reports {
			p.setReport(k, data)
		}
		if p.tab == "" || p.tab == "formats" {
			p.tab = "overview"
		}
		if p.pending != nil {
			// a deep link's filters, open finding, item and runs; the
			// findings request below is the one "ready" waits for
			s := *p.pending
			s.View = p.tab
			p.setState(s)
		}
		// "ready" waits for the first findings page and for the shown
		// reports to be drawn: a test (or a user) reading the page at
		// "ready" sees the findings rows and every score cell too.
		p.readyFind = p.requestFindings()
		if p.meta.Items > 0 {
			p.requestItems()
		}
		p.pump()
	case wire.TypeError:
		msg := data.Get("message").String()
		if id == p.evalID && p.status == StatusLoading {
			p.working = false
			p.status, p.errMsg = StatusError, msg
			return
		}
		p.notice = msg
		p.markReady(id) // the findings page failed: the load itself is done
	case wire.TypeLines:
		var w wire.LineWindow
		if json.Unmarshal([]byte(payload), &w) == nil {
			if id == p.rawLinesID {
				p.rawWin = &w
				return
			}
			p.win = &w
		}
	case wire.TypeFindings:
		var pg wire.FindingPage
		if id == p.rawFindID {
			if json.Unmarshal([]byte(payload), &pg) == nil {
				p.rawFinds = slices.DeleteFunc(pg.Findings, func(f finding.Finding) bool { return f.Line != p.rawLine })
			}
			return
		}
		if json.Unmarshal([]byte(payload), &pg) == nil {
			p.fpage = &pg
			p.pickFromPage()
		}
		p.markReady(id)
	case wire.TypeCompare:
		if id != p.cmpBusy || p.lazy == nil {
			return // an answer for an earlier pick or load
		}
		p.cmpBusy = 0
		data.Set("compare", payload)
		data.Set("compare"+wire.SectionsSuffix, data.Get("parts"))
		data.Set("compare"+wire.OffsetsSuffix, data.Get("offsets"))
		p.setReport("compare", data)
		p.pump()
	case wire.TypeItems:
		var pg wire.ItemPage
		if json.Unmarshal([]byte(payload), &pg) == nil {
			p.ipage = &pg
		}
	case wire.TypeExport:
		p.download(data.Get("blob"), data.Get("name").String())
	}
}

// evaluate sends files (a JS array or FileList of File/Blob) to the worker.
// names, when it is an array, gives each file's path (a dropped folder's
// files); otherwise a file of a picked folder knows its path and a picked
// or dropped file only its name.
func (p *Page) evaluate(files, names app.Value) {
	type given struct {
		f        app.Value
		name     string
		inFolder bool
	}
	var all []given
	folder := true
	for i := 0; i < files.Length(); i++ {
		f := files.Index(i)
		// a file's path inside the folder the user gave
		// ("exp/runs/r1/predictions.jsonl") names its run, as on the
		// command line
		g := given{f: f}
		if names.Truthy() && i < names.Length() && names.Index(i).Type() == app.TypeString {
			g.name, g.inFolder = names.Index(i).String(), true
		} else if v := f.Get("webkitRelativePath"); v.Type() == app.TypeString && v.String() != "" {
			g.name, g.inFolder = v.String(), true
		} else if v := f.Get("name"); v.Type() == app.TypeString {
			g.name = v.String()
		}
		if g.inFolder && inputinfo.HiddenInFolder(g.name) {
			continue // .git, .DS_Store: left out, as on the command line
		}
		folder = folder && g.inFolder
		all = append(all, g)
	}
	if len(all) == 0 {
		if files.Length() > 0 {
			p.failLoad(emptyFolder)
		}
		return
	}
	if folder {
		// a folder is read in the lexical order of its paths, as
		// `eval752 validate FOLDER` reads it (browsers list it in any order)
		slices.SortStableFunc(all, func(a, b given) int { return strings.Compare(a.name, b.name) })
	}
	p.lastFiles, p.lastNames, p.lastDemo = files, names, false
	if p.working || p.workerFailed {
		// A new load replaces the running one: the worker runs one job at
		// a time, so stop it rather than queue behind it. A worker that
		// failed (its WASM did not load) is started again: a message
		// queued for it would wait for ever.
		p.stopWorker()
		p.startWorker()
	}
	arr := app.Window().Get("Array").New()
	sent := make([]any, 0, len(all))
	p.names = p.names[:0]
	for _, g := range all {
		arr.Call("push", g.f)
		sent = append(sent, g.name)
		p.names = append(p.names, g.name)
	}
	p.clearResult()
	p.status, p.errMsg, p.notice = StatusLoading, "", ""
	p.readyFind = 0
	p.loads++
	p.stage, p.done, p.total = "read", 0, 0
	p.started = time.Now()
	msg := map[string]any{"type": wire.TypeEvaluate, "files": arr, "names": sent}
	watchdog := watchdogDefault
	if hook := app.Window().Get("eval752Test"); hook.Truthy() {
		// test hooks (docs/ui.md): a lower memory limit, a worker that
		// dies, a shorter watchdog
		if v := hook.Get("memoryLimit"); v.Type() == app.TypeNumber {
			msg["limit"] = v.Float()
		}
		if hook.Get("crashWorker").Truthy() {
			msg["crash"] = true
		}
		if v := hook.Get("watchdogMs"); v.Type() == app.TypeNumber {
			watchdog = time.Duration(v.Float()) * time.Millisecond
		}
	}
	p.canRetry = false
	p.evalID = p.send(msg)
	p.working = true
	p.heard = time.Now()
	p.watch(p.evalID, watchdog)
}

// watch gives up load id when the worker posts nothing for limit while it
// runs: the worker is alive but hung (a JS error or a Go runtime exit is
// reported at once, see died).
func (p *Page) watch(id int, limit time.Duration) {
	step := min(limit, 5*time.Second)
	p.ctx.After(step, func(ctx app.Context) {
		if !p.working || p.evalID != id {
			return
		}
		if quiet := time.Since(p.heard); quiet >= limit {
			p.died(fmt.Sprintf("the eval752 core stopped answering: no progress for %s", quiet.Round(time.Second)))
			return
		}
		p.watch(id, limit)
	})
}

// died ends the running load (if any) because the worker is gone: the
// status says why in plain words, a Retry button re-runs the load on a new
// worker, and the rest of the page stays usable.
func (p *Page) died(msg string) {
	loading := p.working || p.status == StatusLoading
	p.stopWorker()
	p.workerFailed = true // the next load (or the retry) starts a new worker
	if !loading {
		// after a load: its result stays shown; what needs the worker
		// (findings pages, exports) works again after the next load
		p.notice = msg + "; load the files again to use the findings pages and exports"
		return
	}
	p.clearResult()
	p.status = StatusError
	p.errMsg = msg + ". Nothing more can come from this load: press Retry to run it again on a fresh worker, or use the command line (eval752 results) for an input this large."
	p.canRetry = true
}

// retry runs the last load again, on a fresh worker.
func (p *Page) retry(ctx app.Context, e app.Event) {
	p.canRetry = false
	if p.lastDemo || p.lastFiles == nil {
		p.startDemo()
		return
	}
	p.evaluate(p.lastFiles, p.lastNames)
}

// clearResult forgets the shown load, so a new load's state (or its
// failure) never appears over the previous one's verdict and tables.
func (p *Page) clearResult() {
	p.res, p.win, p.ipage, p.sel, p.fpage = nil, nil, nil, nil, nil
	p.pickFinding = -1
	p.rawItem, p.rawWin, p.rawFinds = "", nil, nil
	p.lazy, p.final, p.findReady = nil, false, false
	p.findRows, p.itemRows = reveal{}, reveal{}
	p.meta = wire.ResultMeta{}
	p.fq = wire.FindingQuery{}
	p.iq = wire.ItemQuery{}
	p.cmp, p.cmpBusy = wire.CompareRequest{}, 0
}

// failLoad shows that a load the user asked for could not start, in place
// of the previous load's result.
func (p *Page) failLoad(msg string) {
	p.clearResult()
	p.status, p.errMsg = StatusError, msg
}

// loadDemo fetches the same-origin demo bundle and evaluates it like a file
// the user picked.
func (p *Page) loadDemo(ctx app.Context, e app.Event) {
	p.startDemo()
}

func (p *Page) startDemo() {
	p.lastDemo, p.lastFiles = true, nil
	p.status, p.errMsg, p.stage, p.done, p.total = StatusLoading, "", "fetch demo", 0, 0
	p.readyFind = 0
	p.res = nil
	p.evalID = -1 // ignore late answers of a previous load (evaluate counts the load)
	p.started = time.Now()
	then(app.Window().Call("fetch", "/web/demo.eval752.zip"), func(resp app.Value) {
		if !resp.Get("ok").Bool() {
			p.ctx.Dispatch(func(ctx app.Context) {
				p.status = StatusError
				p.errMsg = fmt.Sprintf("the demo bundle is not available (HTTP %d): run `make demo`", resp.Get("status").Int())
			})
			return
		}
		then(resp.Call("blob"), func(blob app.Value) {
			file := app.Window().Get("File").New([]any{blob}, "demo.eval752.zip", map[string]any{"type": "application/zip"})
			arr := app.Window().Get("Array").New()
			arr.Call("push", file)
			p.ctx.Dispatch(func(ctx app.Context) {
				p.evaluate(arr, app.Null())
				p.lastDemo = true // a retry fetches the demo again
			})
		}, p.fail)
	}, p.fail)
}

func (p *Page) fail(msg string) {
	p.ctx.Dispatch(func(ctx app.Context) { p.failLoad(msg) })
}

// then attaches callbacks to a JS promise and releases them once settled.
func then(promise app.Value, ok func(app.Value), fail func(string)) {
	var okF, failF app.Func
	release := func() { okF.Release(); failF.Release() }
	okF = app.FuncOf(func(this app.Value, args []app.Value) any {
		defer release()
		var v app.Value = app.Undefined()
		if len(args) > 0 {
			v = args[0]
		}
		ok(v)
		return nil
	})
	failF = app.FuncOf(func(this app.Value, args []app.Value) any {
		defer release()
		msg := "request failed"
		if len(args) > 0 {
			msg = args[0].Call("toString").String()
		}
		fail(msg)
		return nil
	})
	promise.Call("then", okF, failF)
}

func (p *Page) cancel(ctx app.Context, e app.Event) {
	p.stopWorker()
	p.status, p.errMsg = StatusCancelled, ""
	p.evalID = -1
	p.startWorker()
}

// emptyFolder is what a folder with no file to read says.
const emptyFolder = "the folder holds no file (hidden files, whose name starts with \".\", are left out)"

func (p *Page) onFiles(ctx app.Context, e app.Event) {
	in := ctx.JSSrc()
	files := in.Get("files")
	if files.Length() == 0 && in.Get("webkitdirectory").Truthy() {
		// a folder picked with nothing in it: say so, as for a drop
		p.failLoad(emptyFolder)
		return
	}
	if files.Length() > 0 {
		p.status = StatusLoading // first: no stale "ready" while the files are taken
	}
	arr := app.Window().Get("Array").Call("from", files)
	in.Set("value", "") // picking the same file again still fires change
	p.evaluate(arr, app.Null())
}

func (p *Page) onDragOver(ctx app.Context, e app.Event) {
	e.PreventDefault()
	if !p.drag {
		p.drag = true
	}
}

func (p *Page) onDragLeave(ctx app.Context, e app.Event) {
	p.drag = false
}

func (p *Page) onDrop(ctx app.Context, e app.Event) {
	e.PreventDefault()
	p.drag = false
	dt := e.Get("dataTransfer")
	if !dt.Truthy() {
		return
	}
	if e.Get("eval752Folder").Truthy() {
		return // a folder: hooks.js reads it and delivers its files
	}
	if dt.Get("files").Length() > 0 {
		p.status = StatusLoading
	}
	p.evaluate(app.Window().Get("Array").Call("from", dt.Get("files")), app.Null())
}

func (p *Page) setTab(id string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		p.tab = id
		if id == "items" && p.ipage == nil && p.meta.Items > 0 {
			p.requestItems()
		}
		p.pump() // the reports this tab shows
	}
}

// report returns the report kind ("score", …) as decoded so far (the pump
// decodes it a few parts at a time), nil when the result has none or
// its head is not decoded yet.
func (p *Page) report(kind string) *report.Report {
	if l := p.lazy[kind]; l != nil {
		return l.rep
	}
	return nil
}

// takeHeader keeps the result header a piece or the result carries
// (inputs, counts, runs); false after showing why it could not be read.
func (p *Page) takeHeader(payload string) bool {
	var r wire.Result
	if err := json.Unmarshal([]byte(payload), &r); err != nil {
		p.working = false
		p.status, p.errMsg = StatusError, "reading the result: "+err.Error()
		return false
	}
	p.res = &r
	if p.lazy == nil {
		p.lazy = map[string]*lazyReport{}
	}
	return true
}

func (p *Page) requestFindings() int {
	q := p.fq
	if q.Limit == 0 {
		q.Limit = findingsPage
	}
	return p.sendJSON(wire.TypeFindings, q)
}

// markReady turns the status to "ready" when id answers the findings
// request that follows a result.
func (p *Page) markReady(id int) {
	if p.readyFind == 0 || id != p.readyFind || p.status != StatusLoading {
		return
	}
	p.readyFind = 0
	p.findReady = true
	p.pump()
}

// maybeReady turns the status to "ready" once the findings page arrived
// and the reports always shown (overview, scores) are decoded — after one
// more frame, so that what was decoded last is drawn too.
func (p *Page) maybeReady() {
	if !p.findReady || !p.drawn("overview") || !p.drawn("score") ||
		(p.fpage != nil && !p.findRows.revealed(len(p.fpage.Findings))) {
		return
	}
	p.findReady = false
	p.whenDrawn(func() {
		if p.status != StatusLoading || !p.final {
			return
		}
		p.elapsed = time.Since(p.started)
		p.status = StatusReady
	})
}

// drawingSel finds what is still being drawn in the panels "ready" waits
// for (the overview, the findings page, the scores).
const drawingSel = `[data-panel=overview] [data-drawing], [data-panel=findings] [data-drawing], [data-panel=scores] [data-drawing]`

// whenDrawn runs fn (then draws the page) once nothing in those panels is
// still being drawn, checking every pumpPause from a JS timer without
// redrawing the page in between.
func (p *Page) whenDrawn(fn func()) {
	var f app.Func
	f = app.FuncOf(func(this app.Value, args []app.Value) any {
		f.Release()
		if !p.mounted {
			return nil
		}
		if app.Window().Get("document").Call("querySelector", drawingSel).Truthy() {
			p.whenDrawn(fn)
			return nil
		}
		p.ctx.Dispatch(func(ctx app.Context) { fn() })
		return nil
	})
	app.Window().Call("setTimeout", f, pumpPause.Milliseconds())
}

// compareRuns asks the worker for the comparison of the runs in p.cmp.
func (p *Page) compareRuns() {
	if p.cmp.A == "" || p.cmp.B == "" || p.cmp.A == p.cmp.B {
		return
	}
	p.cmpBusy = p.sendJSON(wire.TypeCompare, p.cmp)
}

func (p *Page) requestItems() {
	q := p.iq
	if q.Limit == 0 {
		q.Limit = 25
	}
	p.sendJSON(wire.TypeItems, q)
}

// Event handlers read what they act on from the element (data-*) or from
// the page's state when they run, never from values captured at render
// time: go-app keeps an element's first handler when a later render gives
// a closure of the same function literal (it compares code pointers), so a
// captured value would be the one of the first render.

// exportButton is a button that downloads export what in format.
func (p *Page) exportButton(test, label, what, format string) app.UI {
	return app.Button().Class("button").Attr("data-test", test).
		Attr("data-what", what).Attr("data-format", format).Text(label).OnClick(p.onExport)
}

func (p *Page) onExport(ctx app.Context, e app.Event) {
	req := wire.ExportRequest{What: dataOf(ctx, "what"), Format: dataOf(ctx, "format")}
	if dataOf(ctx, "filtered") == "true" {
		q := p.fq
		req.Filter = &q // the findings the Findings view shows
	}
	p.sendJSON(wire.TypeExport, req)
}

// dataOf reads the data-name attribute of the element an event came from.
func dataOf(ctx app.Context, name string) string {
	v := ctx.JSSrc().Get("dataset").Get(name)
	if v.Type() != app.TypeString {
		return ""
	}
	return v.String()
}

// download saves blob under name through a Blob URL: the bytes never leave
// the browser.
func (p *Page) download(blob app.Value, name string) {
	if !blob.Truthy() {
		return
	}
	url := app.Window().Get("URL").Call("createObjectURL", blob)
	a := app.Window().Get("document").Call("createElement", "a")
	a.Set("href", url)
	a.Set("download", name)
	a.Set("rel", "noopener")
	a.Call("click")
	p.notice = "saved " + name
	p.ctx.After(time.Minute, func(ctx app.Context) {
		app.Window().Get("URL").Call("revokeObjectURL", url)
	})
}
