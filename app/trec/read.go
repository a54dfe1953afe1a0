package trec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sync"
	"sync/atomic"
	"unsafe"
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

// bstr views b as a string without copying. The callers only do this on
// buffers that are never written again.
func bstr(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// parseQrels reads "qid iter docno rel" lines (rel by atol), skipping blank
// and '#' lines, and groups them by qid.
func parseQrels(data []byte, name string) (*qrelsSet, error) {
	s := &qrelsSet{}
	idx := map[string]int{}
	var lineNo int64
	first := true
	for len(data) > 0 {
		var line []byte
		line, data = cutLine(data)
		lineNo++
		cs := contentStart(line)
		if cs < 0 {
			continue
		}
		qid, docno, rel, ok := qrelsFields(line[cs:])
		if first && ok && isHeader(qid, rel) {
			// seed 003 §10 writes qrels.tsv with a header line
			// "qid 0 chunk_id relevance_grade"; trec_eval would read a
			// query "qid" and then abort for want of its results
			s.header = lineNo
			first = false
			continue
		}
		first = false
		if !ok {
			return nil, &InputError{File: name, Line: lineNo, Msg: fmt.Sprintf(
				"malformed qrels line (want 4 fields: qid iter docno rel): %q", clip(line))}
		}
		q := bstr(qid)
		i, seen := idx[q]
		if !seen {
			i = len(s.queries)
			idx[q] = i
			s.queries = append(s.queries, qrelsQuery{qid: q})
		}
		s.queries[i].docs = append(s.queries[i].docs, qrel{docno: bstr(docno), rel: atol(rel), line: lineNo})
	}
	if len(s.queries) == 0 {
		return nil, &InputError{File: name, Msg: "the qrels have no judgments"}
	}
	s.sortQueries()
	return s, nil
}

// isHeader reports whether a first qrels line is a column header: the qid
// column says "qid" and the grade column is not a number.
func isHeader(qid, rel []byte) bool {
	return bytes.EqualFold(qid, []byte("qid")) && len(rel) > 0 && !(rel[0] >= '0' && rel[0] <= '9' || rel[0] == '-' || rel[0] == '+')
}

// cutLine splits data at its first '\n': the line without the newline, and
// what follows it (nil after the last line).
func cutLine(data []byte) (line, rest []byte) {
	line, rest, _ = bytes.Cut(data, newline)
	return line, rest
}

var newline = []byte{'\n'}

// malformedRunLine is the message for a run line with fewer than six fields
// (trec_eval: "Malformed line").
func malformedRunLine(line []byte) string {
	return fmt.Sprintf("malformed run line (want 6 fields: qid iter docno rank score tag): %q", clip(line))
}

func clip(b []byte) string {
	if len(b) > 120 {
		return string(b[:120]) + "..."
	}
	return string(b)
}

// lineError is a malformed run line found by a worker.
type lineError struct {
	line int64
	msg  string
}

// scanRunLines splits whole run lines, numbered from first, into fields and
// calls add for every content line (blank and '#' lines are skipped). It
// stops at the first malformed line. The streaming workers and the
// in-memory reader both read lines through it, so they accept and reject
// exactly the same lines.
func scanRunLines(data []byte, first int64, add func(qid, docno []byte, sim float64, tag []byte, line int64)) *lineError {
	lineNo := first - 1
	for len(data) > 0 {
		var line []byte
		line, data = cutLine(data)
		lineNo++
		cs := contentStart(line)
		if cs < 0 {
			continue
		}
		qid, docno, sim, tag, ok := runFields(line[cs:])
		if !ok {
			return &lineError{line: lineNo, msg: malformedRunLine(line)}
		}
		score, msg := readScore(sim, qid)
		if msg != "" {
			return &lineError{line: lineNo, msg: msg}
		}
		add(qid, docno, score, tag, lineNo)
	}
	return nil
}

// parseRunLines parses whole run lines starting at line number first into
// docs (when keep is true). It validates every line either way.
func parseRunLines(data []byte, first int64, keep bool, docs []rankedDoc) ([]rankedDoc, *lineError) {
	le := scanRunLines(data, first, func(_, docno []byte, sim float64, _ []byte, line int64) {
		if keep {
			docs = append(docs, rankedDoc{sim: sim, docno: bstr(docno), line: line})
		}
	})
	return docs, le
}

// runTag returns the tag (sixth field) of a content line.
func runTag(line []byte) string {
	cs := contentStart(line)
	if cs < 0 {
		return ""
	}
	_, _, _, tag, _ := runFields(line[cs:])
	return string(tag)
}

var errUngrouped = errors.New("trec: run is not grouped by query")

// group is a maximal block of consecutive lines with the same qid.
type group struct {
	qidx int // qrels query index, -1 for a run-only qid
	data []byte
	line int64 // line number of data's first line
	blk  *block
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

func (p *blockPool) get(size int) *block {
	if size == runBlock {
		select {
		case b := <-p.free:
			b.refs.Store(1)
			return b
		default:
		}
	}
	b := &block{buf: make([]byte, size)}
	b.refs.Store(1)
	return b
}

// release drops one reference; the last one returns the block to the pool.
func (p *blockPool) release(b *block) {
	if b.refs.Add(-1) == 0 && len(b.buf) == runBlock {
		select {
		case p.free <- b:
		default:
		}
	}
}

// streamRun reads the run in blocks and hands each group of lines to the
// worker pool. A block is overwritten only after every group cut from it has
// been evaluated, so docno strings can point into it without copying.
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
		lineErr *lineError
	)
	errLine.Store(math.MaxInt64)
	for w := 0; w < e.workers(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := newScratch()
			var docs []rankedDoc
			for g := range jobs {
				if g.line > errLine.Load() {
					pool.release(g.blk)
					continue
				}
				var le *lineError
				docs, le = parseRunLines(g.data, g.line, g.qidx >= 0, docs[:0])
				if le != nil {
					errMu.Lock()
					if lineErr == nil || le.line < lineErr.line {
						lineErr = le
						errLine.Store(le.line)
					}
					errMu.Unlock()
					pool.release(g.blk)
					continue
				}
				if g.qidx >= 0 {
					e.evalOne(g.qidx, docs, sc)
				}
				pool.release(g.blk)
			}
		}()
	}

	seen := make([]bool, len(e.qs.queries))
	cur := pool.get(runBlock)
	var (
		buf      = cur.buf
		filled   int
		scan     int
		gStart   = -1
		gQid     string
		gLine    int64
		lineNo   int64
		eof      bool
		lcStart  = -1 // last content line in buf
		lcEnd    int
		lastLine []byte // last content line once it left buf
		ioErr    error
	)
	emit := func(data []byte) bool {
		i, ok := index[gQid]
		if !ok {
			i = -1
		} else if seen[i] {
			return false
		} else {
			seen[i] = true
			e.present[i] = true
		}
		cur.refs.Add(1)
		jobs <- group{qidx: i, data: data, line: gLine, blk: cur}
		return true
	}
	ungrouped := false
read:
	for {
		if err := ctx.Err(); err != nil {
			ioErr = err
			break
		}
		if !eof && filled < len(buf) {
			n, err := io.ReadFull(r, buf[filled:])
			filled += n
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				eof = true
			} else if err != nil {
				ioErr = err
				break
			}
		}
		for scan < filled {
			var end int
			if nl := bytes.IndexByte(buf[scan:filled], '\n'); nl >= 0 {
				end = scan + nl + 1
			} else if eof {
				end = filled
			} else {
				break
			}
			line := buf[scan:end]
			lineNo++
			if cs := contentStart(line); cs >= 0 {
				qid, _ := nextField(line, cs)
				lcStart, lcEnd = scan, end
				if gStart < 0 {
					gStart, gQid, gLine = scan, string(qid), lineNo
				} else if string(qid) != gQid {
					if !emit(buf[gStart:scan]) {
						ungrouped = true
						break read
					}
					if errLine.Load() != math.MaxInt64 {
						break read
					}
					gStart, gQid, gLine = scan, string(qid), lineNo
				}
			}
			scan = end
		}
		if eof && scan >= filled {
			if gStart >= 0 && !emit(buf[gStart:filled]) {
				ungrouped = true
			}
			break
		}
		// Move the open group (or the partial last line) to a new block.
		keep := scan
		if gStart >= 0 {
			keep = gStart
		}
		if lcStart >= 0 && lcStart < keep {
			lastLine = append(lastLine[:0], buf[lcStart:lcEnd]...)
			lcStart = -1
		}
		rem := filled - keep
		size := runBlock
		for size < 2*rem {
			size *= 2
		}
		nb := pool.get(size)
		copy(nb.buf, buf[keep:filled])
		pool.release(cur)
		cur = nb
		buf, filled, scan = nb.buf, rem, scan-keep
		if gStart >= 0 {
			gStart -= keep
		}
		if lcStart >= 0 {
			lcStart -= keep
			lcEnd -= keep
		}
	}
	close(jobs)
	wg.Wait()
	if lineErr != nil {
		return "", &InputError{File: e.opt.RunName, Line: lineErr.line, Msg: lineErr.msg}
	}
	if ioErr != nil {
		return "", ioErr
	}
	if ungrouped {
		return "", errUngrouped
	}
	if lcStart >= 0 {
		lastLine = buf[lcStart:lcEnd]
	}
	pool.release(cur)
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
	le := scanRunLines(data, 1, func(qid, docno []byte, sim float64, tag []byte, line int64) {
		lastTag, seen = tag, true
		if i, ok := index[string(qid)]; ok {
			docs[i] = append(docs[i], rankedDoc{sim: sim, docno: bstr(docno), line: line})
		}
	})
	if le != nil {
		return "", &InputError{File: e.opt.RunName, Line: le.line, Msg: le.msg}
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
