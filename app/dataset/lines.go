package dataset

import (
	"encoding/json"
	"errors"
	"io"
	"runtime"
	"runtime/debug"
	"sync"

	"eval752/app/finding"
	"eval752/app/formats"
	"eval752/app/jsonl"
	"eval752/app/model"
)

// A JSONL file is checked in two stages. prepareLine does everything that
// depends on the line alone — the strict decode, the JSON Schema check, the
// typed decode — and may run on any goroutine; commitLine then adds the
// findings and the record to the loader in line order, on the loader's
// goroutine. With more than one core (GOMAXPROCS > 1) parallelLines
// prepares blocks of lines on one goroutine per core while the loader
// commits the blocks before them, so every finding, its order and every
// record are the same as when the lines are read one by one (the page's
// WebAssembly worker has one thread and does that).

// lineResult is one prepared JSONL line.
type lineResult struct {
	n    int
	off  int64 // the offset of the line's start
	line []byte
	m    map[string]any
	dfs  finding.List // the decoder's findings
	ok   bool         // m is a record
	rec  prepared

	// fast: a b-2 line read by the fast path (fastB2Line) into b2 and
	// b2raw, already compacted; m and rec are unset
	fast  bool
	b2    model.B2
	b2raw any
}

// prepared is the part of addRecord that needs no loader state.
type prepared struct {
	sfs   finding.List // schema findings
	skip  bool         // no JSON text to decode the typed record from
	line  []byte       // the JSON text (a companion is decoded when committed)
	typed any          // *T of the format's record type, decoded (also partly, on error)
	derr  error        // the typed decode's error
}

func decoderFor(f model.Format) func(path string, line int, b []byte) (map[string]any, finding.List, bool) {
	if pythonJSON(f) {
		return jsonl.DecodeRecordNonFinite
	}
	return jsonl.DecodeRecord
}

// prepareLine prepares one line; w is the worker's scratch for the b-2
// fast path (nil for other formats).
func prepareLine(p *lineResult, name string, f model.Format, line []byte, w *b2Scratch) {
	if w != nil && fastB2Enabled {
		if p.b2, p.b2raw, p.fast = fastB2Line(w, line); p.fast {
			p.ok = true
			return
		}
		p.b2, p.b2raw = model.B2{}, nil
	}
	p.m, p.dfs, p.ok = decoderFor(f)(name, p.n, line)
	if p.ok {
		// a record with findings of the decoder has duplicate keys, whose
		// merging only encoding/json reproduces
		prepareRecord(&p.rec, f, name, p.n, p.m, line, "", len(p.dfs) > 0)
	}
}

// prepareRecord checks a record against its schema and decodes its typed
// value (line is its JSON text; nil: re-encode raw). dups: the line may
// repeat a key.
func prepareRecord(p *prepared, f model.Format, path string, lineNo int, raw map[string]any, line []byte, prefix string, dups bool) {
	p.sfs = formats.Validate(f, raw, path, lineNo, prefix)
	if peerFormat(f) {
		return
	}
	if line == nil && f != model.FormatRAGConfig {
		b, err := json.Marshal(raw)
		if err != nil {
			p.skip = true
			return
		}
		line = b
	}
	if isCompanion(f) {
		p.line = line
	}
	if typedFormat(f) {
		p.typed, p.derr = decodeTyped(f, raw, line, dups)
	}
}

// peerFormat: the formats read from the generic value (which may hold a
// Python NaN that JSON cannot re-encode), with no typed decode.
func peerFormat(f model.Format) bool {
	switch f {
	case model.FormatInspectLog, model.FormatLMEvalResults, model.FormatLMEvalSamples, model.FormatPromptfoo, model.FormatRanxQrels, model.FormatRanxRun,
		model.FormatHELMRunSpec, model.FormatHELMScenario, model.FormatHELMState:
		return true
	}
	return false
}

// typedFormat: the formats whose records addRecord appends through appendRec.
func typedFormat(f model.Format) bool {
	switch f {
	case model.FormatItem, model.FormatResult, model.FormatAtom, model.FormatB2, model.FormatCorpusManifest,
		model.FormatSources, model.FormatV2Question, model.FormatClause, model.FormatVerdict, model.FormatRAGQuestion,
		model.FormatRAGDocument, model.FormatRAGPage, model.FormatRAGChunk, model.FormatRAGJudgment,
		model.FormatRAGErrors, model.FormatRAGGrades, model.FormatRAGPrediction:
		return true
	}
	return false
}

func decodeTyped(f model.Format, raw map[string]any, line []byte, dups bool) (any, error) {
	switch f {
	case model.FormatItem:
		return decodeRec[model.Item](raw, line)
	case model.FormatResult:
		return decodeRec[model.Result](raw, bareRetrieved(raw, line))
	case model.FormatAtom:
		return decodeRec[model.Atom](raw, line)
	case model.FormatB2:
		if !dups {
			if v, ok := b2FromTree(raw, line); ok {
				return &v, nil
			}
		}
		return decodeRec[model.B2](raw, line)
	case model.FormatCorpusManifest:
		return decodeRec[model.CorpusEntry](raw, line)
	case model.FormatSources:
		return decodeRec[model.Source](raw, line)
	case model.FormatV2Question:
		return decodeRec[model.V2Question](raw, line)
	case model.FormatClause:
		return decodeRec[model.Clause](raw, line)
	case model.FormatVerdict:
		return decodeRec[model.Verdict](raw, line)
	case model.FormatRAGQuestion:
		return decodeRec[model.RAGQuestion](raw, line)
	case model.FormatRAGDocument:
		return decodeRec[model.RAGDocument](raw, line)
	case model.FormatRAGPage:
		return decodeRec[model.RAGPage](raw, line)
	case model.FormatRAGChunk:
		return decodeRec[model.RAGChunk](raw, line)
	case model.FormatRAGJudgment:
		return decodeRec[model.RAGJudgment](raw, line)
	case model.FormatRAGErrors:
		return decodeRec[model.RAGError](raw, line)
	case model.FormatRAGGrades:
		return decodeRec[model.RAGGrade](raw, line)
	case model.FormatRAGPrediction:
		return decodeRec[model.RAGPrediction](raw, line)
	}
	return nil, nil
}

// lineWorkers is how many goroutines prepare lines: one per core, none
// (prepare inline) with one core.
func lineWorkers() int {
	if n := runtime.GOMAXPROCS(0); n > 1 {
		return min(n, 8)
	}
	return 0
}

// A lineBatch is a block of consecutive lines, prepared by one worker.
type lineBatch struct {
	buf   []byte
	res   []lineResult
	done  chan struct{}
	panic *ReadPanic // a panic of the worker, raised again by the loader
}

const (
	batchLines = 256
	batchBytes = 256 << 10
)

var errStopped = errors.New("reading stopped")

// stopReader fails once stop is closed, so the line reader ends early.
type stopReader struct {
	r    io.Reader
	stop chan struct{}
}

func (s stopReader) Read(p []byte) (int, error) {
	select {
	case <-s.stop:
		return 0, errStopped
	default:
	}
	return s.r.Read(p)
}

// parallelLines is jsonl.Lines with prepareLine run by workers and commit
// called for every line in order on the calling goroutine. A panic of the
// reader or a worker is raised on the calling goroutine (as a *ReadPanic
// naming the file), after the other goroutines have stopped.
func parallelLines(r io.Reader, name string, maxLine int64, f model.Format, workers int, commit func(*lineResult)) (lines int, fs finding.List, err error) {
	stop := make(chan struct{})
	work := make(chan *lineBatch, 2*workers)
	ordered := make(chan *lineBatch, 2*workers)
	// committed blocks go back to the reader: on 1M b-2 lines a new block
	// per 256 KiB was as much garbage as the records kept
	free := make(chan *lineBatch, 4*workers+2)
	newBatch := func(size int) *lineBatch {
		select {
		case b := <-free:
			if cap(b.buf) >= size {
				b.done = make(chan struct{})
				return b
			}
		default:
		}
		return &lineBatch{buf: make([]byte, 0, max(batchBytes, size)), res: make([]lineResult, 0, batchLines), done: make(chan struct{})}
	}
	recycle := func(b *lineBatch) {
		if cap(b.buf) != batchBytes || cap(b.res) != batchLines {
			return // grown for a long line: let it go
		}
		clear(b.res)
		b.buf, b.res = b.buf[:0], b.res[:0]
		select {
		case free <- b:
		default:
		}
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := scratchFor(f)
			for b := range work {
				prepareBatch(b, name, f, w)
			}
		}()
	}
	var readPanic *ReadPanic
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		defer close(ordered)
		defer close(work)
		defer func() {
			if p := recover(); p != nil {
				readPanic = asReadPanic(name, p)
			}
		}()
		var b *lineBatch
		send := func() bool {
			if b == nil {
				return true
			}
			select {
			case ordered <- b:
			case <-stop:
				return false
			}
			select {
			case work <- b:
			case <-stop:
				close(b.done) // never prepared: the loader is draining
				return false
			}
			b = nil
			return true
		}
		stopped := false
		lines, fs, err = jsonl.LinesAt(stopReader{r, stop}, name, maxLine, func(n int, off int64, line []byte) {
			if stopped {
				return
			}
			if b == nil {
				b = newBatch(len(line))
			}
			if len(b.buf)+len(line) > cap(b.buf) && len(b.res) > 0 {
				if !send() {
					stopped = true
					return
				}
				b = newBatch(len(line))
			}
			start := len(b.buf)
			b.buf = append(b.buf, line...)
			b.res = append(b.res, lineResult{n: n, off: off, line: b.buf[start:len(b.buf):len(b.buf)]})
			if len(b.res) == batchLines {
				stopped = !send()
			}
		})
		if !stopped {
			send()
		}
	}()

	var failed *ReadPanic
	var stopOnce sync.Once
	halt := func() { stopOnce.Do(func() { close(stop) }) }
	drain := func() {
		for b := range ordered {
			<-b.done
		}
		<-readDone
		wg.Wait()
	}
	defer func() {
		// a panic of commit (on this goroutine): stop the reader and the
		// workers before the panic net sees it
		if p := recover(); p != nil {
			rp := asReadPanic(name, p)
			halt()
			drain()
			panic(rp)
		}
	}()
	for b := range ordered {
		<-b.done
		if failed != nil {
			continue // drain: the reader is stopping
		}
		if b.panic != nil {
			failed = b.panic
			halt()
			continue
		}
		if TestHookCommit != nil {
			TestHookCommit(name)
		}
		for i := range b.res {
			commit(&b.res[i])
		}
		recycle(b)
	}
	<-readDone
	wg.Wait()
	if failed == nil && readPanic != nil {
		failed = readPanic
	}
	if failed != nil {
		panic(failed)
	}
	return lines, fs, err
}

// scratchFor returns a worker's scratch for format f's fast path, if any.
func scratchFor(f model.Format) *b2Scratch {
	if f == model.FormatB2 {
		return newB2Scratch()
	}
	return nil
}

func prepareBatch(b *lineBatch, name string, f model.Format, w *b2Scratch) {
	defer close(b.done)
	defer func() {
		if p := recover(); p != nil {
			b.panic = asReadPanic(name, p)
		}
	}()
	if TestHookPrepare != nil {
		TestHookPrepare(name)
	}
	for i := range b.res {
		prepareLine(&b.res[i], name, f, b.res[i].line, w)
	}
}

// TestHookPrepare, when set, is called by a worker before it prepares a
// block of lines of the named file, and TestHookCommit by the loader before
// it commits one (tests inject a panic through them).
var TestHookPrepare, TestHookCommit func(name string)

func asReadPanic(name string, p any) *ReadPanic {
	if rp, ok := p.(*ReadPanic); ok {
		return rp
	}
	return &ReadPanic{File: name, Value: p, Stack: debug.Stack()}
}
