package trec

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Judgment is one qrels line: "qid iter docno rel".
type Judgment struct {
	QID   string `json:"qid"`
	DocNo string `json:"docno"`
	Rel   int64  `json:"rel"`
	Line  int    `json:"line,omitempty"` // 1-based line in the qrels file; 0 if unknown
}

// Doc is one run line: "qid iter docno rank sim tag". Rank and iter are not
// kept: trec_eval ignores them and ranks by Score.
type Doc struct {
	QID   string  `json:"qid"`
	DocNo string  `json:"docno"`
	Score float64 `json:"score"`
	Tag   string  `json:"tag"`
	Line  int     `json:"line,omitempty"` // 1-based line in the run file; 0 if unknown
}

// Options are trec_eval's command-line switches. Start from DefaultOptions:
// the zero value means -l 0.
type Options struct {
	// Measures are -m specs: measure names, "name.params" or the groups
	// "official", "all_trec", "set". Empty means "official".
	Measures []string
	// RelLevel is -l: the minimum grade counted relevant (default 1).
	RelLevel int64
	// MaxDocs is -M: keep only the first MaxDocs docs of each canonical
	// ranking. Negative (NoMaxDocs, the default) means no limit; 0 keeps no
	// doc at all, as trec_eval's -M 0 does.
	MaxDocs int64
	// JudgedOnly is -J: drop docs without a qrels judgment before ranking.
	JudgedOnly bool
	// Complete is -c: a qrels query missing from the run scores 0 and
	// counts in the means. Without it a missing query is an error.
	Complete bool
	// NumDocsInColl is -N, only used by utility's fourth coefficient.
	NumDocsInColl int64
	// QrelsName and RunName name the inputs in error messages; empty means
	// the file paths (EvaluateFiles) or "qrels" / "run".
	QrelsName, RunName string
	// Workers evaluating queries in parallel; 0 means GOMAXPROCS.
	Workers int
}

// NoMaxDocs is Options.MaxDocs without -M: every retrieved doc is kept.
const NoMaxDocs = -1

// DefaultOptions are trec_eval's defaults: -m official, -l 1, no -M.
func DefaultOptions() Options {
	return Options{RelLevel: 1, MaxDocs: NoMaxDocs}
}

func (o *Options) defaultNames() {
	if o.QrelsName == "" {
		o.QrelsName = "qrels"
	}
	if o.RunName == "" {
		o.RunName = "run"
	}
}

// InputError is a problem in an input file: a malformed line, a duplicate
// docno, a qrels query missing from the run. File and Line locate it (Line 0
// when the problem is not one line).
type InputError struct {
	File   string
	Line   int64
	Offset int64 // byte offset of the line in the file (lines read by trecio)
	QID    string
	Msg    string
	Hint   string // how to fix the line ("" when there is no one fix)
}

func (e *InputError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// QueryResult holds one query's values, aligned with Result.Columns.
type QueryResult struct {
	QID    string    `json:"qid"`
	Values []float64 `json:"values"`
	// RelString is the relstring measure's value (empty if not requested).
	RelString string `json:"relstring,omitempty"`
	// Missing: the query was not in the run and was scored 0 (-c).
	Missing bool `json:"missing,omitempty"`
}

// Result is one trec_eval evaluation: per-query values in qrels qid order
// (strcmp) and the summary ("all") values.
type Result struct {
	RunID   string        `json:"runid"`
	Columns []Column      `json:"columns"`
	Queries []QueryResult `json:"queries"`
	// Summary holds the "all" value of each column (0 for columns without a
	// numeric summary: runid, relstring). Values can be NaN only where
	// trec_eval prints -nan (iprec_at_recall under -J with every doc removed).
	Summary []float64 `json:"summary"`
	// NumQueries is num_q: queries averaged over.
	NumQueries int `json:"num_q"`
	// QrelsHeader is the line of a header line of the qrels that was
	// skipped ("qid 0 chunk_id relevance_grade", seed 003 §10); 0 if none.
	QrelsHeader int64 `json:"qrels_header,omitempty"`
}

// Value returns a query's value of a printed column name ("P_10").
func (r *Result) Value(qid, column string) (float64, bool) {
	c := r.column(column)
	if c < 0 {
		return 0, false
	}
	i := sort.Search(len(r.Queries), func(i int) bool { return r.Queries[i].QID >= qid })
	if i == len(r.Queries) || r.Queries[i].QID != qid {
		return 0, false
	}
	return r.Queries[i].Values[c], true
}

// Mean returns the summary value of a printed column name.
func (r *Result) Mean(column string) (float64, bool) {
	c := r.column(column)
	if c < 0 {
		return 0, false
	}
	return r.Summary[c], true
}

func (r *Result) column(name string) int {
	for i, c := range r.Columns {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// Evaluate scores an in-memory run against in-memory qrels exactly as
// trec_eval v10 would score the same lines (see SEMANTICS.md): queries are
// the qrels qids in byte order, run-only qids are ignored, each ranking is
// canonicalised once (score descending, docno descending), and the options
// apply -l, -M, -J, -c. Errors are *InputError for bad input and plain
// errors for bad options (unknown measure, bad parameters).
func Evaluate(qrels []Judgment, run []Doc, opt Options) (*Result, error) {
	opt.defaultNames()
	p, err := buildPlan(opt.Measures)
	if err != nil {
		return nil, err
	}
	qs, err := groupJudgments(qrels, opt.QrelsName)
	if err != nil {
		return nil, err
	}
	if len(run) == 0 {
		return nil, &InputError{File: opt.RunName, Msg: "the run has no result lines"}
	}
	index := qs.index()
	docs := make([][]rankedDoc, len(qs.queries))
	for _, d := range run {
		if i, ok := index[d.QID]; ok {
			docs[i] = append(docs[i], rankedDoc{sim: d.Score, docno: d.DocNo, line: int64(d.Line)})
		}
	}
	e := newEvaluator(p, qs, &opt)
	work := make([]int, 0, len(docs))
	for i, ds := range docs {
		if ds != nil {
			e.present[i] = true
			work = append(work, i)
		}
	}
	e.evalParallel(work, func(i int) []rankedDoc { return docs[i] })
	return e.finish(run[len(run)-1].Tag)
}

// qrelsSet is the qrels grouped by qid, sorted by qid bytewise.
type qrelsSet struct {
	queries []qrelsQuery
	header  int64 // line of a skipped header line (0: none)
}

func (s *qrelsSet) index() map[string]int {
	m := make(map[string]int, len(s.queries))
	for i := range s.queries {
		m[s.queries[i].qid] = i
	}
	return m
}

func groupJudgments(js []Judgment, name string) (*qrelsSet, error) {
	if len(js) == 0 {
		return nil, &InputError{File: name, Msg: "the qrels have no judgments"}
	}
	idx := map[string]int{}
	s := &qrelsSet{}
	for _, j := range js {
		i, ok := idx[j.QID]
		if !ok {
			i = len(s.queries)
			idx[j.QID] = i
			s.queries = append(s.queries, qrelsQuery{qid: j.QID})
		}
		s.queries[i].docs = append(s.queries[i].docs, qrel{docno: j.DocNo, rel: j.Rel, line: int64(j.Line)})
	}
	s.sortQueries()
	return s, nil
}

func (s *qrelsSet) sortQueries() {
	slices.SortFunc(s.queries, func(a, b qrelsQuery) int {
		switch {
		case a.qid < b.qid:
			return -1
		case a.qid > b.qid:
			return 1
		}
		return 0
	})
}

// evaluator holds the per-query outputs of one evaluation.
type evaluator struct {
	plan    *plan
	qs      *qrelsSet
	opt     *Options
	present []bool // query i was found in the run
	values  [][]float64
	relstr  []string
	errs    []*evalError // per query
}

func newEvaluator(p *plan, qs *qrelsSet, opt *Options) *evaluator {
	n := len(qs.queries)
	return &evaluator{plan: p, qs: qs, opt: opt, present: make([]bool, n),
		values: make([][]float64, n), relstr: make([]string, n), errs: make([]*evalError, n)}
}

func (e *evaluator) workers() int {
	if e.opt.Workers > 0 {
		return e.opt.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// evalOne computes every planned measure for query i.
func (e *evaluator) evalOne(i int, docs []rankedDoc, sc *scratch) {
	q, err := formQuery(&e.qs.queries[i], docs, e.opt, sc)
	if err != nil {
		e.errs[i] = err
		return
	}
	out := make([]float64, e.plan.nvalues)
	for _, in := range e.plan.insts {
		in.m.calc(q, in, out)
	}
	e.values[i] = out
	e.relstr[i] = q.relString
	e.errs[i] = nil
}

// evalParallel evaluates the listed queries on the worker pool.
func (e *evaluator) evalParallel(work []int, docsOf func(int) []rankedDoc) {
	ch := make(chan int, 64)
	var wg sync.WaitGroup
	for w := 0; w < e.workers(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := newScratch()
			for i := range ch {
				e.evalOne(i, docsOf(i), sc)
			}
		}()
	}
	for _, i := range work {
		ch <- i
	}
	close(ch)
	wg.Wait()
}

// finish handles queries missing from the run (-c: a one-doc bogus ranking
// that scores 0, as trec_eval v10 does; otherwise an error), reports the
// first evaluation error in qrels order, and computes the summary.
func (e *evaluator) finish(runID string) (*Result, error) {
	sc := newScratch()
	for i := range e.qs.queries {
		if e.present[i] {
			continue
		}
		qq := &e.qs.queries[i]
		if !e.opt.Complete {
			line := int64(0)
			if len(qq.docs) > 0 {
				line = qq.docs[0].line
			}
			return nil, &InputError{File: e.opt.QrelsName, Line: line, QID: qq.qid, Msg: fmt.Sprintf(
				"query %q has judgments but no results in %s; trec_eval v10 aborts here (use -c to score it 0)",
				qq.qid, e.opt.RunName)}
		}
		e.evalOne(i, []rankedDoc{{sim: 1, docno: bogusDocno}}, sc)
		if e.values[i] != nil {
			e.cleanBogus(i)
		}
	}
	for i, err := range e.errs {
		if err != nil {
			f := e.opt.RunName
			if err.inQrels {
				f = e.opt.QrelsName
			}
			return nil, &InputError{File: f, Line: err.line, QID: e.qs.queries[i].qid, Msg: err.msg}
		}
	}
	return e.summarise(runID), nil
}

// cleanBogus zeroes what trec_eval resets after scoring the bogus ranking
// of a missing query (trec_eval.c, "clean up leftovers"). trec_eval matches
// the printed value names exactly: "num_ret", "utility", "relstring" and
// any name starting with "unj". So a parameterised utility
// ("utility_2,-1,0,0") keeps the bogus doc's -1 of a non-relevant retrieved
// doc, and a parameterised relstring ("relstring_10") keeps its '-'.
func (e *evaluator) cleanBogus(i int) {
	for c, col := range e.plan.columns {
		switch {
		case col.Name == "num_ret", col.Name == "utility", strings.HasPrefix(col.Name, "unj"):
			e.values[i][c] = 0
		case col.Name == "relstring":
			e.relstr[i] = ""
		}
	}
}

// completeNumRel is num_rel's summary under -c (m_num_rel.c,
// te_calc_avg_num_rel): the qrels lines with rel > 0 over every qrels
// query, whatever -l says.
func (e *evaluator) completeNumRel() float64 {
	n := 0
	for _, q := range e.qs.queries {
		for _, d := range q.docs {
			if d.rel > 0 {
				n++
			}
		}
	}
	return float64(n)
}

func (e *evaluator) summarise(runID string) *Result {
	p := e.plan
	r := &Result{RunID: runID, Columns: p.columns, NumQueries: len(e.qs.queries), QrelsHeader: e.qs.header}
	sum := make([]float64, p.nvalues)
	for i := range e.qs.queries {
		v := e.values[i]
		r.Queries = append(r.Queries, QueryResult{QID: strings.Clone(e.qs.queries[i].qid), Values: v,
			RelString: e.relstr[i], Missing: !e.present[i]})
		for c := range sum {
			sum[c] += v[c]
		}
	}
	n := float64(r.NumQueries)
	r.Summary = make([]float64, p.nvalues)
	for c, col := range p.columns {
		switch col.Average {
		case AvgMean:
			r.Summary[c] = sum[c] / n
		case AvgSum:
			r.Summary[c] = sum[c]
			if e.opt.Complete && col.Name == "num_rel" {
				r.Summary[c] = e.completeNumRel()
			}
		case AvgGeo:
			r.Summary[c] = math.Exp(sum[c] / n)
		case AvgCount:
			r.Summary[c] = n
		}
	}
	return r
}
