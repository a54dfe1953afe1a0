package trec

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"os"
	"sync"
	"sync/atomic"

	"eval752/app/trecio"
)

// EvaluateFiles reads a qrels file and a run file and evaluates them like
// trec_eval. The run is streamed: it is read in large blocks, cut into runs
// of lines with the same qid, and each query is parsed and evaluated on a
// worker goroutine while the next block is read, so memory stays bounded by
// a few blocks, whatever the run's size. A run whose lines for one qrels
// query are not contiguous (an "ungrouped" run) is detected and evaluated
// again with the whole file in memory, so the result never depends on line
// order. runPath "-" reads standard input.
//
// Errors: *os.PathError when a file cannot be read, *InputError for bad
// content, a plain error for bad options.
func EvaluateFiles(ctx context.Context, qrelsPath, runPath string, opt Options) (*Result, error) {
	if opt.QrelsName == "" {
		opt.QrelsName = qrelsPath
	}
	if opt.RunName == "" {
		opt.RunName = runPath
	}
	p, err := buildPlan(opt.Measures)
	if err != nil {
		return nil, err
	}
	qdata, err := os.ReadFile(qrelsPath)
	if err != nil {
		return nil, err
	}
	qs, err := parseQrels(qdata, opt.QrelsName)
	if err != nil {
		return nil, err
	}
	var (
		src      io.Reader
		inMemory []byte
	)
	if runPath == "-" {
		if inMemory, err = io.ReadAll(os.Stdin); err != nil {
			return nil, err
		}
		src = bytes.NewReader(inMemory)
	} else {
		f, err := os.Open(runPath)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		src = f
	}
	e := newEvaluator(p, qs, &opt)
	runID, err := streamRun(ctx, src, e)
	if errors.Is(err, errUngrouped) {
		// Fall back to reading the whole run into memory.
		if inMemory == nil {
			if inMemory, err = os.ReadFile(runPath); err != nil {
				return nil, err
			}
		}
		e = newEvaluator(p, qs, &opt)
		runID, err = bufferedRun(inMemory, e)
	}
	if err != nil {
		return nil, err
	}
	return e.finish(runID)
}

// EvaluateBytes is EvaluateFiles for inputs already in memory (the browser).
func EvaluateBytes(qrels, run []byte, opt Options) (*Result, error) {
	opt.defaultNames()
	p, err := buildPlan(opt.Measures)
	if err != nil {
		return nil, err
	}
	qs, err := parseQrels(qrels, opt.QrelsName)
	if err != nil {
		return nil, err
	}
	e := newEvaluator(p, qs, &opt)
	runID, err := bufferedRun(run, e)
	if err != nil {
		return nil, err
	}
	return e.finish(runID)
}

// parseQrels reads "qid iter docno rel" lines (rel by atol), skipping blank
// and '#' lines and a first-line header, and groups them by qid. Lines are
// read by trecio in its Lenient (trec_eval) mode.
func parseQrels(data []byte, name string) (*qrelsSet, error) {
	s := &qrelsSet{}
	idx := map[string]int{}
	p := trecio.QrelsParser{Mode: trecio.Lenient}
	var rec trecio.Record
	var is trecio.Issue
	b := trecio.Block{Data: data}
	it := b.Lines(trecio.Lenient, 0)
	for {
		if _, more := it.Next(); !more {
			break
		}
		switch p.Parse(it.Line, &rec, &is) {
		case trecio.Skip:
			continue
		case trecio.Header:
			s.header = it.Rel
			continue
		case trecio.Bad:
			is.Line, is.Offset = it.Rel, it.Offset
			return nil, inputError(name, &is)
		}
		q := trecio.View(rec.QID)
		i, seen := idx[q]
		if !seen {
			i = len(s.queries)
			idx[q] = i
			s.queries = append(s.queries, qrelsQuery{qid: q})
		}
		s.queries[i].docs = append(s.queries[i].docs, qrel{docno: trecio.View(rec.DocNo), rel: rec.Grade, line: it.Rel})
	}
	if len(s.queries) == 0 {
		return nil, &InputError{File: name, Msg: "the qrels have no judgments"}
	}
	s.sortQueries()
	return s, nil
}

// inputError is a trecio issue of file name as an *InputError.
func inputError(name string, is *trecio.Issue) *InputError {
	return &InputError{File: name, Line: is.Line, Offset: is.Offset, Msg: is.Message(), Hint: is.Hint()}
}

// scanRunLines splits whole run lines, numbered from first (data starting
// at byte offset off of the file), with trecio in its Lenient mode and
// calls add for every content line (blank and '#' lines are skipped). It
// stops at the first malformed line. The streaming workers and the
// in-memory reader both read lines through it, so they accept and reject
// exactly the same lines.
func scanRunLines(data []byte, first, off int64, add func(qid, docno []byte, sim float64, tag []byte, line int64)) *trecio.Issue {
	b := trecio.Block{Data: data, Offset: off}
	it := b.Lines(trecio.Lenient, 0)
	var rec trecio.Record
	var is trecio.Issue
	for {
		if _, more := it.Next(); !more {
			return nil
		}
		switch trecio.ParseRun(trecio.Lenient, it.Line, &rec, &is) {
		case trecio.Skip:
			continue
		case trecio.Bad:
			is.Line, is.Offset = first-1+it.Rel, it.Offset
			bad := is
			return &bad
		}
		add(rec.QID, rec.DocNo, rec.Score, rec.Tag, first-1+it.Rel)
	}
}

// parseRunLines parses whole run lines starting at line number first into
// docs (when keep is true). It validates every line either way.
func parseRunLines(data []byte, first, off int64, keep bool, docs []rankedDoc) ([]rankedDoc, *trecio.Issue) {
	le := scanRunLines(data, first, off, func(_, docno []byte, sim float64, _ []byte, line int64) {
		if keep {
			docs = append(docs, rankedDoc{sim: sim, docno: trecio.View(docno), line: line})
		}
	})
	return docs, le
}

// runTag returns the tag (sixth field) of a content line.
func runTag(line []byte) string {
	var rec trecio.Record
	var is trecio.Issue
	if trecio.ParseRun(trecio.Lenient, line, &rec, &is) != trecio.OK {
		return ""
	}
	return string(rec.Tag)
}

var errUngrouped = errors.New("trec: run is not grouped by query")

// part is a run of whole lines of one query inside one block.
type part struct {
	data []byte
	line int64 // line number of data's first line
	off  int64 // byte offset of data in the file
	blk  *block
}

// group is a maximal run of consecutive lines with the same qid: usually
// one part, more when it crosses blocks.
type group struct {
	qidx  int // qrels query index, -1 for a run-only qid
	parts []part
}

// runBlock is the read block size (a variable so tests can force tiny blocks).
var runBlock = 8 << 20

// block is one read buffer. Docno strings of the groups cut from it point
// into it, so it is recycled only when no group references it any more:
// refs counts the groups in flight plus one while it is the dispatcher's
// current block. Reusing blocks avoids faulting in fresh memory for every
// megabyte of a large run.
type block struct {
	buf  []byte
	refs atomic.Int32
}

type blockPool struct{ free chan *block }

func (p *blockPool) get() *block {
	select {
	case b := <-p.free:
		b.refs.Store(1)
		return b
	default:
	}
	b := &block{buf: make([]byte, 0, runBlock)}
	b.refs.Store(1)
	return b
}

// release drops one reference; the last one returns the block to the pool.
func (p *blockPool) release(b *block) {
	if b.refs.Add(-1) == 0 && cap(b.buf) == runBlock {
		select {
		case p.free <- b:
		default:
		}
	}
}

// streamRun reads the run in blocks of whole lines (trecio.Reader), cuts
// them into groups of lines with the same qid and hands each group to the
// worker pool. A block is overwritten only after every group cut from it
// has been evaluated, so docno strings can point into it without copying.
func streamRun(ctx context.Context, r io.Reader, e *evaluator) (string, error) {
	index := e.qs.index()
	jobs := make(chan group, 16)
	pool := &blockPool{free: make(chan *block, 4)}
	var (
		wg sync.WaitGroup
		// errLine is the first malformed line found so far (MaxInt64
		// while none is). Workers still parse every group that starts
		// before it, since one of those may hold an earlier bad line:
		// groups are evaluated in any order, the error must not be.
		errLine atomic.Int64
		errMu   sync.Mutex
		lineErr *trecio.Issue
	)
	errLine.Store(math.MaxInt64)
	for w := 0; w < e.workers(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := newScratch()
			var docs []rankedDoc
			for g := range jobs {
				if g.parts[0].line > errLine.Load() {
					for _, p := range g.parts {
						pool.release(p.blk)
					}
					continue
				}
				var le *trecio.Issue
				docs = docs[:0]
				for _, p := range g.parts {
					if docs, le = parseRunLines(p.data, p.line, p.off, g.qidx >= 0, docs); le != nil {
						break
					}
				}
				if le != nil {
					errMu.Lock()
					if lineErr == nil || le.Line < lineErr.Line {
						lineErr = le
						errLine.Store(le.Line)
					}
					errMu.Unlock()
				} else if g.qidx >= 0 {
					e.evalOne(g.qidx, docs, sc)
				}
				for _, p := range g.parts {
					pool.release(p.blk)
				}
			}
		}()
	}

	seen := make([]bool, len(e.qs.queries))
	rd := trecio.NewReader(r, runBlock, 0)
	var (
		open      []part // the open group's parts before the current block
		gQid      string
		gStart    = -1 // the open group's start in the current block
		gLine     int64
		lineNo    int64
		lastLine  []byte // the last content line
		ioErr     error
		ungrouped bool
		cur       *block
		bOff      int64
	)
	// emit sends the open group, ending at end of the current block.
	emit := func(end int) bool {
		parts := open
		if gStart >= 0 && end > gStart {
			cur.refs.Add(1)
			parts = append(parts, part{data: cur.buf[gStart:end], line: gLine, off: bOff + int64(gStart), blk: cur})
		}
		open = nil
		i, ok := index[gQid]
		if !ok {
			i = -1
		} else if seen[i] {
			for _, p := range parts {
				pool.release(p.blk)
			}
			return false
		} else {
			seen[i] = true
			e.present[i] = true
		}
		jobs <- group{qidx: i, parts: parts}
		return true
	}
read:
	for {
		if err := ctx.Err(); err != nil {
			ioErr = err
			break
		}
		cur = pool.get()
		b, err := rd.Next(cur.buf[:0])
		if err == io.EOF {
			pool.release(cur)
			cur = nil
			break
		}
		if err != nil {
			pool.release(cur)
			cur = nil
			ioErr = err
			break
		}
		cur.buf, bOff = b.Data, b.Offset
		buf := b.Data
		lc := -1 // the block's last content line
		lcEnd := 0
		for scan := 0; scan < len(buf); {
			end := len(buf)
			if nl := bytes.IndexByte(buf[scan:], '\n'); nl >= 0 {
				end = scan + nl + 1
			}
			lineNo++
			if qid, ok := trecio.FirstField(buf[scan:end]); ok {
				lc, lcEnd = scan, end
				switch {
				case gStart < 0 && open == nil:
					gStart, gQid, gLine = scan, string(qid), lineNo
				case string(qid) != gQid:
					if !emit(scan) {
						ungrouped = true
						break read
					}
					if errLine.Load() != math.MaxInt64 {
						break read
					}
					gStart, gQid, gLine = scan, string(qid), lineNo
				case gStart < 0:
					// the open group goes on in this block
					gStart, gLine = scan, lineNo
				}
			}
			scan = end
		}
		if lc >= 0 {
			lastLine = append(lastLine[:0], buf[lc:lcEnd]...)
		}
		// the open group continues in the next block
		if gStart >= 0 {
			cur.refs.Add(1)
			open = append(open, part{data: buf[gStart:], line: gLine, off: bOff + int64(gStart), blk: cur})
			gStart = -1
		}
		pool.release(cur)
		cur = nil
	}
	if cur != nil {
		pool.release(cur)
		cur = nil
	}
	if !ungrouped && ioErr == nil && open != nil && errLine.Load() == math.MaxInt64 {
		if !emit(0) {
			ungrouped = true
		}
	}
	for _, p := range open {
		pool.release(p.blk)
	}
	close(jobs)
	wg.Wait()
	if lineErr != nil {
		return "", inputError(e.opt.RunName, lineErr)
	}
	if ioErr != nil {
		return "", ioErr
	}
	if ungrouped {
		return "", errUngrouped
	}
	if lastLine == nil {
		return "", &InputError{File: e.opt.RunName, Msg: "the run has no result lines"}
	}
	return runTag(lastLine), nil
}

// bufferedRun parses a whole run held in memory, groups docs by qrels
// query whatever the line order, and evaluates the queries in parallel.
func bufferedRun(data []byte, e *evaluator) (string, error) {
	index := e.qs.index()
	docs := make([][]rankedDoc, len(e.qs.queries))
	var lastTag []byte
	seen := false
	le := scanRunLines(data, 1, 0, func(qid, docno []byte, sim float64, tag []byte, line int64) {
		lastTag, seen = tag, true
		if i, ok := index[string(qid)]; ok {
			docs[i] = append(docs[i], rankedDoc{sim: sim, docno: trecio.View(docno), line: line})
		}
	})
	if le != nil {
		return "", inputError(e.opt.RunName, le)
	}
	if !seen {
		return "", &InputError{File: e.opt.RunName, Msg: "the run has no result lines"}
	}
	work := make([]int, 0, len(docs))
	for i, d := range docs {
		if d != nil {
			e.present[i] = true
			work = append(work, i)
		}
	}
	e.evalParallel(work, func(i int) []rankedDoc { return docs[i] })
	return string(lastTag), nil
}
