package engine

import (
	"context"
	"io"
	"os"
	"runtime/debug"
	"sync"

	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/itemscore"
	"eval752/app/model"
	"eval752/app/validate"
)

// trecInputs reports whether inputs are exactly one TREC qrels file and at
// least one TREC run file, as dataset.Load would read them
// (dataset.InputFormat), with distinct names (Load renames a repeated name,
// or reads a repeated file once). Those inputs are streamed
// (itemscore.ScoreTRECFiles: per-query results only, never the run lines in
// memory), which gives the same inputs, findings, counts and scores as the
// in-memory path.
func trecInputs(inputs []dataset.Input, lim dataset.Limits) ([]itemscore.TRECFile, bool) {
	if lim == (dataset.Limits{}) {
		lim = dataset.DefaultLimits()
	}
	var files []itemscore.TRECFile
	nq, nr := 0, 0
	names := map[string]bool{}
	for _, in := range inputs {
		if in.R == nil || names[in.Name] {
			return nil, false
		}
		names[in.Name] = true
		switch dataset.InputFormat(in, lim) {
		case model.FormatTRECQrels:
			nq++
			files = append(files, itemscore.TRECFile{Name: in.Name, R: in.R, Size: in.Size, Qrels: true})
		case model.FormatTRECRun:
			nr++
			files = append(files, itemscore.TRECFile{Name: in.Name, R: in.R, Size: in.Size})
		default:
			return nil, false
		}
	}
	return files, nq == 1 && nr >= 1
}

// streamTREC scores plain TREC files in one streaming pass, reporting the
// bytes read as the "read" stage of progress (when not nil).
func streamTREC(ctx context.Context, files []itemscore.TRECFile, lim dataset.Limits, iopt itemscore.Options, progress func(dataset.Progress)) (*itemscore.TRECStream, error) {
	if progress != nil {
		pr := &readProgress{f: progress}
		for _, f := range files {
			pr.total += f.Size
		}
		wrapped := make([]itemscore.TRECFile, len(files))
		for i, f := range files {
			f.R = countingAt{f.R, pr}
			wrapped[i] = f
		}
		files = wrapped
		pr.report(true)
		defer pr.report(true)
	}
	return itemscore.ScoreTRECFiles(ctx, files, lim, iopt)
}

// streamed is a plain TREC evaluation read by streamTREC: ds is the
// dataset every rule that does not read TREC lines runs on (the inputs,
// the reading findings, the formats present; no records), the stream holds
// the scored set, the record counts and the repeated pairs.
type streamed struct {
	st *itemscore.TRECStream
	ds *dataset.Dataset
}

func newStreamed(st *itemscore.TRECStream) *streamed {
	ds := &dataset.Dataset{
		Inputs:   st.Inputs,
		Findings: st.Findings,
		Has:      map[model.Format]bool{model.FormatTRECQrels: true, model.FormatTRECRun: true},
	}
	return &streamed{st: st, ds: ds}
}

// dupFindings are what validate's checkTREC reports on the loaded TREC
// records, from the repeated pairs the stream found.
func (s *streamed) dupFindings() finding.List {
	var out finding.List
	for _, d := range s.st.Dups {
		if d.Qrels {
			out = append(out, validate.TRECQrelsDuplicate(d.Path, d.Line, d.DocNo, d.QID, d.Grade, d.First, d.FirstGrade))
		} else {
			out = append(out, validate.TRECRunDuplicate(d.Path, d.Line, d.DocNo, d.QID, d.First))
		}
	}
	return out
}

// records counts the qrels judgments and run lines read as records.
func (s *streamed) records() (qrels, run int) {
	for i, in := range s.st.Inputs {
		if in.Format == model.FormatTRECQrels {
			qrels += s.st.Records[i]
		} else {
			run += s.st.Records[i]
		}
	}
	return qrels, run
}

// readProgress reports the bytes read by the streaming path.
type readProgress struct {
	f                     func(dataset.Progress)
	mu                    sync.Mutex
	done, total, reported int64
}

func (p *readProgress) add(n int) {
	p.mu.Lock()
	p.done += int64(n)
	p.mu.Unlock()
	p.report(false)
}

func (p *readProgress) report(force bool) {
	p.mu.Lock()
	done := p.done
	if !force && done-p.reported < 256<<10 {
		p.mu.Unlock()
		return
	}
	p.reported = done
	p.mu.Unlock()
	p.f(dataset.Progress{Stage: "read", Done: done, Total: p.total})
}

type countingAt struct {
	r io.ReaderAt
	p *readProgress
}

func (c countingAt) ReadAt(b []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(b, off)
	c.p.add(n)
	return n, err
}

// streamMemLimit sets a soft memory limit (runtime/debug.SetMemoryLimit)
// for the streaming path, unless GOMEMLIMIT is set, and returns what undoes
// it. What the streaming path keeps grows with the qrels, not the run: about
// 18 bytes of heap per qrels byte (units, gold labels, per-query values and
// rankings, then the report). The JSON report is rendered into buffers as
// large as the output (~165 MB on the 20M-line benchmark), and with the
// default GOGC the heap doubles over that live set before a collection; a
// limit of max(512 MiB, 32 × qrels bytes) lets the collector reclaim them
// first (peak RSS 0.83 → 0.55 GB on the benchmark at the same CPU time)
// while leaving a larger live set room to grow without thrashing.
func streamMemLimit(files []itemscore.TRECFile) func() {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	var qrels int64
	for _, f := range files {
		if f.Qrels {
			qrels = f.Size
		}
	}
	prev := debug.SetMemoryLimit(max(512<<20, 32*qrels))
	return func() { debug.SetMemoryLimit(prev) }
}

// StreamsTREC reports whether Validate, Evaluate, Score, Compare and
// CompareMany read inputs on the streaming path: exactly one TREC qrels file
// and TREC run files, with distinct names (an ungrouped run or a repeated run
// name still falls back to the in-memory path while reading).
func StreamsTREC(inputs []dataset.Input, lim dataset.Limits) bool {
	_, ok := trecInputs(inputs, lim)
	return ok
}
