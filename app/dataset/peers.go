package dataset

import (
	"bytes"
	"io"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"eval752/app/bundle"
	"eval752/app/finding"
	"eval752/app/formats"
	"eval752/app/jsonl"
	"eval752/app/model"
	"eval752/app/peer"
)

// peerRecord keeps the record of a peer tool's format: an Inspect .json log,
// an lm-eval results file or samples line, a promptfoo output, or a ranx
// qrels / run (which become TREC qrels / runs).
func (l *loader) peerRecord(f model.Format, at Loc, raw map[string]any) {
	loc := l.ds.Where(at)
	switch f {
	case model.FormatInspectLog:
		lg, fs := peer.InspectLog(loc.Path, raw)
		l.add(fs...)
		l.ds.Peers = append(l.ds.Peers, lg)
	case model.FormatLMEvalResults:
		l.ds.Peers = append(l.ds.Peers, peer.LMEvalResults(loc.Path, raw)...)
	case model.FormatLMEvalSamples:
		var lg *peer.Log
		if n := len(l.ds.Peers); n > 0 && l.ds.Peers[n-1].Path == loc.Path && l.ds.Peers[n-1].Format == f {
			lg = l.ds.Peers[n-1]
		} else {
			lg = peer.NewLMEvalSamples(loc.Path)
			l.ds.Peers = append(l.ds.Peers, lg)
		}
		l.add(lg.LMEvalSample(raw, peer.Loc{Path: loc.Path, Line: loc.Line})...)
	case model.FormatPromptfoo:
		l.ds.Peers = append(l.ds.Peers, peer.Promptfoo(loc.Path, raw))
	case model.FormatRanxQrels, model.FormatRanxRun:
		l.ranx(f, loc.Path, raw)
	case model.FormatHELMRunSpec, model.FormatHELMScenario, model.FormatHELMState:
		l.ds.Peers = append(l.ds.Peers, peer.HELM(f, loc.Path, raw))
	}
}

// ranx turns a ranx JSON qrels / run into a TREC qrels file / run (the run
// is named after the file, ranks follow the scores). Lines are those of
// the documents' keys in the file.
func (l *loader) ranx(f model.Format, name string, raw map[string]any) {
	lines := l.ds.KeyLines[name]
	qids := make([]string, 0, len(raw))
	for q := range raw {
		qids = append(qids, q)
	}
	sort.Slice(qids, func(i, j int) bool {
		return lines[ptrOf(qids[i])] < lines[ptrOf(qids[j])] || lines[ptrOf(qids[i])] == lines[ptrOf(qids[j])] && qids[i] < qids[j]
	})
	qf := QrelsFile{Path: name}
	rf := RunFile{Path: name, Tag: strings.TrimSuffix(path.Base(name), path.Ext(name))}
	for _, q := range qids {
		docs, _ := raw[q].(map[string]any)
		ds := make([]string, 0, len(docs))
		for d := range docs {
			ds = append(ds, d)
		}
		sort.Slice(ds, func(i, j int) bool {
			a, b := lines[ptrOf(q, ds[i])], lines[ptrOf(q, ds[j])]
			return a < b || a == b && ds[i] < ds[j]
		})
		for rank, d := range ds {
			v, ok := peer.Num(docs[d])
			if !ok {
				continue // the schema reported it
			}
			ln := lines[ptrOf(q, d)]
			if f == model.FormatRanxQrels {
				if v != float64(int(v)) {
					continue
				}
				qf.Judgments = append(qf.Judgments, Qrel{Line: ln, QID: q, DocNo: d, Grade: int(v)})
			} else {
				rf.Lines = append(rf.Lines, RunLine{Line: ln, QID: q, DocNo: d, Rank: rank + 1, Score: v, Tag: rf.Tag})
			}
		}
	}
	if f == model.FormatRanxQrels {
		l.ds.Qrels = append(l.ds.Qrels, qf)
	} else {
		l.ds.Runs = append(l.ds.Runs, rf)
	}
}

func ptrOf(parts ...string) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteByte('/')
		b.WriteString(jsonl.EscapePointer(p))
	}
	return b.String()
}

func entryNames(es []*bundle.Entry) []string {
	out := make([]string, 0, len(es))
	for _, e := range es {
		out = append(out, e.Name)
	}
	return out
}

// inspectEval reads an Inspect AI .eval archive entry by entry, never
// whole: header.json (or _journal/start.json when the run did not finish)
// is the log's header; every samples/<id>_epoch_<n>.json is decoded,
// checked against inspect.sample and reduced to a peer.Sample before the
// next is read; summaries.json stands in for the samples when the archive
// has none (a log written without samples). Other entries are hashed.
func (l *loader) inspectEval(name string, a *bundle.Archive) error {
	lg := peer.NewInspect(name, model.FormatInspectEval)
	lg.Runs = nil
	max := l.opt.Limits.MaxLineBytes
	if max <= 0 {
		max = jsonl.DefaultMaxLine
	}
	var summaries []byte
	var summariesPath string
	hasHeader := slices.ContainsFunc(a.Entries, func(e *bundle.Entry) bool { return e.Safe && bundle.Clean(e.Name) == "header.json" })
	var samples int
	var start map[string]any
	for _, e := range a.Entries {
		if err := l.ctx.Err(); err != nil {
			return err
		}
		if e.Dir || !e.Safe {
			continue
		}
		n := bundle.Clean(e.Name)
		full := a.Full(e.Name)
		rd, err := a.OpenEntry(e)
		if err != nil {
			continue // reported
		}
		isSample := strings.HasPrefix(n, "samples/") && strings.HasSuffix(n, ".json")
		want := isSample || n == "header.json" || n == "_journal/start.json" || n == "summaries.json"
		if !want {
			_ = rd.Drain()
			continue
		}
		b, rerr := io.ReadAll(io.LimitReader(rd, max+1))
		rd.Close()
		if rerr != nil || rd.Err() != nil {
			continue // reported by the reader
		}
		if int64(len(b)) > max {
			l.add(RuleTooLarge.At(full, 0, "", "the entry is larger than %d bytes; it is not parsed", max))
			continue
		}
		if n == "summaries.json" {
			summaries, summariesPath = b, full // an array: read only when there are no samples
			continue
		}
		v := l.entryJSON(full, b)
		if v == nil {
			continue
		}
		switch {
		case n == "header.json":
			l.locatedSchema(model.FormatInspectLog, v, full, b)
			lg.InspectHeader(v, peer.Loc{Path: full})
			at := map[string]int{}
			lines := newLineIndex(b)
			for p, off := range jsonl.ValueOffsets(b) {
				at[p], _ = lines.lineCol(len(b), off)
			}
			for i := range lg.Reported {
				lg.Reported[i].Line = at[lg.Reported[i].Pointer]
			}
		case n == "_journal/start.json":
			start = v
		case isSample:
			samples++
			l.locatedSchema(model.FormatInspectSample, v, full, b)
			if fs := lg.InspectSample(v, peer.Loc{Path: full}); len(fs) > 0 {
				l.add(locate(fs, b)...)
			}
		}
	}
	if !hasHeader && start != nil {
		lg.InspectHeader(start, peer.Loc{Path: a.Full("_journal/start.json")})
	}
	if samples == 0 && summaries != nil {
		vals, probs, _ := jsonl.DecodeNonFinite(summaries)
		if len(probs) == 0 {
			for i, e := range arrOf(vals) {
				if m, ok := e.(map[string]any); ok {
					l.add(lg.InspectSample(m, peer.Loc{Path: summariesPath, Pointer: "/" + strconv.Itoa(i)})...)
				}
			}
		}
	}
	if len(lg.Runs) == 0 {
		lg.Runs = []*peer.Run{{}}
	}
	l.ds.Peers = append(l.ds.Peers, lg)
	return nil
}

// pythonJSON: the format is written by Python's json module, which writes
// NaN, Infinity and -Infinity for non-finite floats (Inspect AI, lm-eval
// results and samples, HELM); such a file is decoded with them
// (jsonl.DecodeNonFinite, jsonl.DecodeRecordNonFinite).
func pythonJSON(f model.Format) bool {
	switch f {
	case model.FormatInspectLog, model.FormatLMEvalResults, model.FormatLMEvalSamples, model.FormatHELMRunSpec, model.FormatHELMScenario,
		model.FormatHELMState, model.FormatHELMPerInstance, model.FormatHELMStats:
		return true
	}
	return false
}

func arrOf(v any) []any {
	a, _ := v.([]any)
	return a
}

// entryJSON decodes one JSON entry of an archive, reporting syntax problems
// at their line; nil when it is not a usable object.
func (l *loader) entryJSON(full string, b []byte) map[string]any {
	b = bytes.TrimPrefix(b, []byte{0xEF, 0xBB, 0xBF})
	if !utf8.Valid(b) {
		line, col := lineCol(b, jsonl.BadUTF8(b))
		l.add(jsonl.RuleInvalidUTF8.At(full, line, "", "the entry is not valid UTF-8 (line %d, column %d)", line, col))
		return nil
	}
	v, problems, _ := jsonl.DecodeNonFinite(b) // entries of an Inspect archive: Python JSON
	for _, p := range problems {
		line, col := lineCol(b, p.Col-1)
		l.add(jsonl.Findings(full, line, []jsonl.Problem{{Kind: p.Kind, Col: col, Pointer: p.Pointer, Msg: p.Msg}})...)
	}
	m, ok := v.(map[string]any)
	if v != nil && !ok {
		l.add(jsonl.RuleNotObject.At(full, 0, "", "the entry holds a JSON %s, not an object", jsonl.TypeName(v)))
	}
	return m
}

// locatedSchema checks v against f's schema; findings get the line of
// their pointer in b (computed only when there are findings, so a clean
// archive keeps no line tables).
func (l *loader) locatedSchema(f model.Format, v map[string]any, full string, b []byte) {
	fs := formats.Validate(f, v, full, 0, "")
	if len(fs) == 0 {
		return
	}
	l.add(locate(fs, b)...)
}

// locate gives findings of one JSON document the line of their pointer (or
// of its nearest parent).
func locate(fs finding.List, b []byte) finding.List {
	at := map[string]int{}
	lines := newLineIndex(b)
	for p, off := range jsonl.ValueOffsets(b) {
		at[p], _ = lines.lineCol(len(b), off)
	}
	for i := range fs {
		if fs[i].Line != 0 {
			continue
		}
		for p := fs[i].Pointer; ; p = p[:strings.LastIndexByte(p, '/')] {
			if n, ok := at[p]; ok {
				fs[i].Line = n
				break
			}
			if p == "" {
				break
			}
		}
	}
	return fs
}

// finishPeers links the peer logs (lm-eval samples into their results),
// reports logs without samples, and re-checks every headline number.
func (l *loader) finishPeers() {
	if len(l.ds.Peers) == 0 {
		return
	}
	l.ds.Peers = peer.Link(l.ds.Peers)
	for _, lg := range l.ds.Peers {
		// samples of a whole-file log are located at their value's line
		for _, r := range lg.Runs {
			for i := range r.Samples {
				s := &r.Samples[i]
				if s.Line == 0 && s.Pointer != "" {
					s.Line = l.ds.KeyLines[s.Path][s.Pointer]
				}
			}
		}
		l.add(lg.Finish()...)
		fs := lg.Recompute()
		// a headline of a whole-file log is located at its key's line
		for i := range lg.Reported {
			r := &lg.Reported[i]
			if r.Line == 0 {
				if lines := l.ds.KeyLines[r.Path]; lines != nil {
					r.Line = lines[r.Pointer]
				}
			}
		}
		for i := range fs {
			if fs[i].Line == 0 {
				if lines := l.ds.KeyLines[fs[i].Path]; lines != nil {
					fs[i].Line = lines[fs[i].Pointer]
				}
			}
		}
		l.add(fs...)
	}
}
