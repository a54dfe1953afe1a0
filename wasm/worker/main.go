//go:build js && wasm

// Command worker is the eval752 core compiled to WebAssembly for a Web
// Worker (static/worker.js loads it). It has no UI code: it receives the
// user's File objects from the page, reads them lazily through
// FileReaderSync, runs engine.Evaluate — the same call the CLI makes — and
// posts back progress, the result, line windows for findings, item pages and
// export files. The protocol is in app/ui/wire.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"syscall/js"
	"time"

	"eval752/app/dataset"
	"eval752/app/engine"
	"eval752/app/report"
	"eval752/app/ui/wire"
	"eval752/app/ui/workside"
)

type worker struct {
	inputs []dataset.Input
	result *engine.Result
	items  []report.ItemDetail
	jobs   chan job
	// queued counts the messages received: the warm-up stops at the first
	queued atomic.Int32
	warmed chan struct{} // closed when the warm-up has stopped
}

// job is a message from the page and when it was received.
type job struct {
	msg js.Value
	at  time.Time
}

func main() {
	w := &worker{jobs: make(chan job, 64), warmed: make(chan struct{})}
	// The handler only queues: the JS callback must return at once, and the
	// jobs run one by one on this goroutine (reads block on FileReaderSync,
	// which is allowed in a worker).
	js.Global().Set("onmessage", js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) > 0 {
			w.queued.Add(1)
			w.jobs <- job{args[0].Get("data"), time.Now()}
		}
		return nil
	}))
	post(map[string]any{"type": wire.TypeReady})
	go w.warmUp()
	for j := range w.jobs {
		<-w.warmed // the warm-up stops at its next step once a message came
		w.handle(j.msg, j.at)
	}
}

// warmUp runs while the worker waits for its first file: it compiles every
// format's JSON Schema and evaluates a small sample (workside.WarmSample of
// the demo bundle the page serves: eight lines of each JSONL file, read as
// a folder), so the browser has compiled and optimised the code a load
// runs before a user's file comes — a cold first load ran 3–5× slower than
// the next ones. It then posts {type: "warm", json: {"millis": N,
// "done": bool}}. Between two steps it sleeps a millisecond, which hands
// control back to the browser (Go WebAssembly only does when every
// goroutine is blocked), so a message that arrives is taken at once: the
// warm-up then stops for good, and the job (which waited at most one
// step, counted in its worker time) compiles what it still needs itself —
// one compile per format per worker (formats.Prepare).
func (w *worker) warmUp() {
	defer close(w.warmed)
	start := time.Now()
	pause := func() bool {
		time.Sleep(time.Millisecond)
		return w.queued.Load() == 0
	}
	inputs, _ := workside.WarmSample(fetchBytes("demo.eval752.zip"), workside.WarmLines) // none: schemas only
	done := pause() && workside.WarmUp(inputs, pause)
	b, _ := json.Marshal(map[string]any{"millis": time.Since(start).Milliseconds(), "done": done})
	post(map[string]any{"type": wire.TypeWarm, "id": 0, "json": string(b)})
}

// fetchBytes fetches url (relative to worker.js) and returns its bytes, or
// nil when it cannot be had (a site exported without the demo).
func fetchBytes(url string) []byte {
	type answer struct {
		v  js.Value
		ok bool
	}
	await := func(p js.Value) (js.Value, bool) {
		ch := make(chan answer, 1)
		var ok, fail js.Func
		ok = js.FuncOf(func(this js.Value, args []js.Value) any {
			ch <- answer{args[0], true}
			return nil
		})
		fail = js.FuncOf(func(this js.Value, args []js.Value) any {
			ch <- answer{js.Undefined(), false}
			return nil
		})
		p.Call("then", ok, fail)
		a := <-ch
		ok.Release()
		fail.Release()
		return a.v, a.ok
	}
	resp, ok := await(js.Global().Call("fetch", url))
	if !ok || !resp.Get("ok").Bool() {
		return nil
	}
	buf, ok := await(resp.Call("arrayBuffer"))
	if !ok {
		return nil
	}
	u8 := js.Global().Get("Uint8Array").New(buf)
	b := make([]byte, u8.Length())
	js.CopyBytesToGo(b, u8)
	return b
}

func post(m map[string]any) {
	js.Global().Call("postMessage", m)
}

// postMoving posts m handing over the ArrayBuffers of transfer (no copy:
// the page receives them without the cost of cloning megabytes).
func postMoving(m map[string]any, transfer []any) {
	js.Global().Call("postMessage", m, transfer)
}

// packParts puts a split report's parts into one byte array (a
// Uint8Array whose buffer is transferred) and their offsets (JSON: part i
// is bytes offsets[i]..offsets[i+1]).
func packParts(parts []string) (js.Value, string) {
	n := 0
	offs := make([]int, 0, len(parts)+1)
	for _, p := range parts {
		offs = append(offs, n)
		n += len(p)
	}
	offs = append(offs, n)
	buf := make([]byte, 0, n)
	for _, p := range parts {
		buf = append(buf, p...)
	}
	u8 := js.Global().Get("Uint8Array").New(n)
	js.CopyBytesToJS(u8, buf)
	o, _ := json.Marshal(offs)
	return u8, string(o)
}

func postErr(id int, format string, a ...any) {
	post(map[string]any{"type": wire.TypeError, "id": id, "message": fmt.Sprintf(format, a...)})
}

// handle answers one message, received at at.
func (w *worker) handle(msg js.Value, at time.Time) {
	id := 0
	if v := msg.Get("id"); v.Type() == js.TypeNumber {
		id = v.Int()
	}
	defer func() {
		if r := recover(); r != nil {
			// the panic net outside Evaluate (which nets its own): the
			// internal.error finding's words, never a raw stack
			ie := engine.Recovered(r, "")
			postErr(id, "%s", ie.Finding.String())
		}
	}()
	payload := ""
	if v := msg.Get("json"); v.Type() == js.TypeString {
		payload = v.String()
	}
	// request decodes the payload into v; false (after posting the error)
	// when it is not valid, or when the request needs a result and none is
	// loaded yet.
	request := func(what string, v any, needsResult bool) bool {
		if err := json.Unmarshal([]byte(payload), v); err != nil {
			postErr(id, "bad %s request: %v", what, err)
			return false
		}
		if needsResult && w.result == nil {
			postErr(id, "nothing is loaded")
			return false
		}
		return true
	}
	switch typ := msg.Get("type").String(); typ {
	case wire.TypeEvaluate:
		if msg.Get("crash").Truthy() {
			// the page's test hook for a core that dies mid-load: an
			// unrecovered panic ends the Go runtime, as running out of
			// memory does, and static/worker.js reports it
			go func() { panic("forced by the page's test hook eval752Test.crashWorker") }()
			select {}
		}
		limit := workside.DefaultPageLimit
		if v := msg.Get("limit"); v.Type() == js.TypeNumber && v.Float() > 0 {
			limit = int64(v.Float())
		}
		w.evaluate(id, msg.Get("files"), msg.Get("names"), limit, at)
	case wire.TypeLines:
		var req wire.LinesRequest
		if request("lines", &req, false) {
			// a record's line is read from its start offset (the item
			// browser's items keep it), any other line by a scan
			postJSON(wire.TypeLines, id, workside.ReadLinesAt(w.inputs, req, workside.OffsetOf(w.items, req.Path, req.Line)))
		}
	case wire.TypeFindings:
		var q wire.FindingQuery
		if request("findings", &q, true) {
			postJSON(wire.TypeFindings, id, wire.FindingsPage(w.result.Findings, q))
		}
	case wire.TypeItems:
		var q wire.ItemQuery
		if request("items", &q, false) {
			postJSON(wire.TypeItems, id, wire.Page(w.items, q))
		}
	case wire.TypeExport:
		var req wire.ExportRequest
		if !request("export", &req, true) {
			return
		}
		name, mime, data, err := workside.Export(w.result, req)
		if err != nil {
			postErr(id, "%v", err)
			return
		}
		u8 := js.Global().Get("Uint8Array").New(len(data))
		js.CopyBytesToJS(u8, data)
		blob := js.Global().Get("Blob").New([]any{u8}, map[string]any{"type": mime})
		post(map[string]any{"type": wire.TypeExport, "id": id, "blob": blob, "name": name})
	case wire.TypeCompare:
		var req wire.CompareRequest
		if !request("compare", &req, true) {
			return
		}
		if err := w.result.Recompare(req.A, req.B); err != nil {
			postErr(id, "%v", err)
			return
		}
		// exports now give this comparison; the page gets it without items
		slim, _ := workside.Slim(&engine.Result{Compare: w.result.Compare})
		if slim.Compare == nil {
			postErr(id, "no comparison of %s and %s", req.A, req.B)
			return
		}
		head, secs, err := wire.SplitReport(slim.Compare)
		if err != nil {
			postErr(id, "encoding the comparison: %v", err)
			return
		}
		u8, offs := packParts(secs)
		postMoving(map[string]any{"type": wire.TypeCompare, "id": id, "json": head, "parts": u8, "offsets": offs}, []any{u8.Get("buffer")})
	default:
		postErr(id, "unknown message type %q", typ)
	}
}

func postJSON(typ string, id int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		postErr(id, "encoding %s: %v", typ, err)
		return
	}
	post(map[string]any{"type": typ, "id": id, "json": string(b)})
}

// evaluate runs a load; its worker time counts from start, when the
// message was received (a wait for the warm-up to step aside included).
func (w *worker) evaluate(id int, files, names js.Value, limit int64, start time.Time) {
	w.inputs, w.result, w.items = nil, nil, nil
	var total int64
	var read int64
	lastPost := time.Time{}
	// the phase and its fraction: bytes read of total while reading, steps
	// done of total in the later phases (engine.Evaluate tells them)
	stage := "read"
	var done, of int64
	tell := func(force bool) {
		if !force && time.Since(lastPost) < 50*time.Millisecond {
			return
		}
		lastPost = time.Now()
		pr := dataset.Progress{Stage: stage, Done: done, Total: of}
		if stage == "read" {
			pr.Done, pr.Total = min(read, total), total
		}
		b, _ := json.Marshal(pr)
		post(map[string]any{"type": wire.TypeProgress, "id": id, "json": string(b)})
	}
	onRead := func(n int64) {
		read += n
		tell(false)
	}
	for i := 0; i < files.Length(); i++ {
		f := files.Index(i)
		name := ""
		if i < names.Length() {
			name = names.Index(i).String()
		}
		if name == "" {
			name = fmt.Sprintf("file-%d", i+1)
		}
		// Two files of one name (from two folders) are told apart by
		// dataset.Load, which also reads a file given twice once.
		br := newBlobReader(f, onRead)
		if err := br.probe(); err != nil {
			postErr(id, "%s: %v", name, err)
			return
		}
		total += br.size
		// a name with a "/" is a path inside a folder the user picked
		w.inputs = append(w.inputs, dataset.Input{Name: name, R: br, Size: br.size, InFolder: strings.Contains(name, "/")})
	}
	tell(true)
	// An input the worker's memory cannot hold is refused before it is
	// read, from its sizes and the budget per format (plain TREC inputs
	// the engine streams by the streaming budget: engine.EstimateInputs
	// decides with the engine's own test).
	est, err := engine.EstimateInputs(context.Background(), w.inputs, dataset.Limits{})
	if err != nil {
		postErr(id, "%v", err)
		return
	}
	given := make([]string, len(w.inputs))
	for i, in := range w.inputs {
		given[i] = in.Name
	}
	if msg := workside.TooLarge(est, limit, given); msg != "" {
		w.inputs = nil
		postErr(id, "%s", msg)
		return
	}
	// The Go heap lives in the worker's WebAssembly memory, which grows and
	// never shrinks: its peak is what the tab keeps. Tell the collector
	// the budget (workside.HeapLimit) so garbage is collected before the
	// heap grows past what this input should need, instead of at twice the
	// live heap (GOGC 100).
	debug.SetMemoryLimit(workside.HeapLimit(est, limit))
	opt := engine.DefaultOptions()
	if est.Streamed {
		// a run found ungrouped while streaming is read in memory: refused
		// then if the in-memory budget is over the limit, before it is read
		opt.InMemory = func() error {
			e, err := dataset.EstimateInputs(context.Background(), w.inputs)
			if err != nil {
				return err
			}
			if msg := workside.TooLarge(e, limit, given); msg != "" {
				w.inputs = nil
				return errors.New(msg)
			}
			debug.SetMemoryLimit(workside.HeapLimit(e, limit))
			return nil
		}
	}
	// The result crosses in pieces as the engine finishes them: overview
	// and the first findings page once validation is done, the score
	// reports once scoring is, the audit with the final result. Each
	// report travels as its head and one JSON string per section, which
	// the page decodes one per frame (no single long task on the UI
	// thread).
	sent := map[string]bool{}
	failed := false
	opt.Piece = func(piece string, res *engine.Result) {
		if failed {
			return
		}
		msg := map[string]any{"type": wire.TypePiece, "id": id, "piece": piece}
		if piece == engine.PieceValidated {
			page := wire.FindingsPage(res.Findings, wire.FindingQuery{Limit: wire.FirstFindings})
			b, _ := json.Marshal(page)
			msg["findings"] = string(b)
		}
		if err := w.postReports(msg, res, sent); err != nil {
			failed = true
			postErr(id, "%v", err)
			return
		}
		postMoving(msg, transfers(msg))
	}
	res, err := engine.Evaluate(context.Background(), w.inputs, opt, func(p dataset.Progress) {
		if p.Stage == "" {
			return
		}
		changed := p.Stage != stage
		stage = p.Stage
		if stage != "read" {
			done, of = p.Done, p.Total
		}
		tell(changed || (of > 0 && done == of))
	})
	if failed {
		return
	}
	// an *engine.InternalError (a panic, netted) comes with a result that
	// holds its internal.error finding: shown like any other finding
	if _, netted := engine.AsInternal(err); err != nil && !netted {
		postErr(id, "%v", err)
		return
	}
	w.result = res
	_, items := workside.Slim(res)
	w.items = items
	// The header (inputs, counts, runs) and the reports not sent in a
	// piece cross now; findings are paged on request.
	msg := map[string]any{"type": wire.TypeResult, "id": id}
	if err := w.postReports(msg, res, sent); err != nil {
		postErr(id, "%v", err)
		return
	}
	meta, _ := json.Marshal(wire.ResultMeta{Items: len(items), Millis: time.Since(start).Milliseconds(), InBytes: total})
	msg["meta"] = string(meta)
	postMoving(msg, transfers(msg))
}

// transfers lists the buffers of the reports' parts in msg.
func transfers(msg map[string]any) []any {
	var t []any
	for _, k := range wire.Reports {
		if v, ok := msg[k+wire.SectionsSuffix].(js.Value); ok {
			t = append(t, v.Get("buffer"))
		}
	}
	return t
}

// postReports puts into msg the result's header (json: inputs, counts,
// runs; no findings, no reports) and every report of res not yet in sent,
// each split by wire.SplitReport (its items stay in the worker).
func (w *worker) postReports(msg map[string]any, res *engine.Result, sent map[string]bool) error {
	slim, _ := workside.Slim(res)
	reps := map[string]*report.Report{"overview": slim.Overview, "score": slim.Score, "compare": slim.Compare, "many": slim.Many, "audit": slim.Audit}
	for _, k := range wire.Reports {
		r := reps[k]
		if r == nil || sent[k] {
			continue
		}
		head, secs, err := wire.SplitReport(r)
		if err != nil {
			return fmt.Errorf("encoding the %s report: %v", k, err)
		}
		u8, offs := packParts(secs)
		msg[k] = head
		msg[k+wire.SectionsSuffix] = u8
		msg[k+wire.OffsetsSuffix] = offs
		sent[k] = true
	}
	slim.Overview, slim.Score, slim.Compare, slim.Many, slim.Audit = nil, nil, nil, nil, nil
	slim.Findings = nil
	b, err := json.Marshal(slim)
	if err != nil {
		return fmt.Errorf("encoding the result: %v", err)
	}
	msg["json"] = string(b)
	return nil
}
