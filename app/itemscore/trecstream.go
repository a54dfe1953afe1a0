package itemscore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"os"
	"path"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/jsonl"
	"eval752/app/metrics"
	"eval752/app/model"
	"eval752/app/report"
	"eval752/app/resolve"
)

// TRECFile is one plain TREC input of ScoreTRECFiles: a qrels file or a run
// file, named as the user named it (the name is the finding path, the
// Unit.Loc path and the report's input path, as with dataset.Load).
type TRECFile struct {
	Path  string
	Qrels bool
}

// TRECStream is what ScoreTRECFiles produced: the same Set, inputs and
// findings that dataset.Load followed by Score would give on those files.
type TRECStream struct {
	Set      *Set
	Inputs   []dataset.InputInfo // in the order of the files given
	Findings finding.List        // normalized, as Dataset.Findings
}

// ErrNotStreamable says the files are valid but cannot be scored in one
// streaming pass: a run whose lines for one query are not contiguous (an
// "ungrouped" run) or two run files with the same run name (whose results
// Score merges). The caller scores them with dataset.Load and Score instead.
var ErrNotStreamable = errors.New("itemscore: TREC inputs need the in-memory path")

// ScoreTRECFiles is Score for inputs made only of plain TREC files — exactly
// one qrels file and any number of run files — without holding the run
// lines in memory: each run is read once, cut into blocks of lines that are
// parsed on every core, grouped into queries in file order, and each query
// is scored as soon as its last line has been read. Memory is bounded by a
// few blocks plus the per-query results (values and the item browser's
// top-Depth ranking), never by the number of run lines.
//
// The result equals dataset.Load + Score on the same files (the same units,
// ItemScores, unknown ids, inputs with sha256 and line counts, and findings:
// malformed lines are trec.syntax findings and reading goes on) because it
// parses each line with ParseRun's rules and scores each query with the same
// code as Score. Runs are scored one after the other, in the order given.
//
// It returns ErrNotStreamable for an ungrouped run or a repeated run name,
// and an error when a file cannot be read.
func ScoreTRECFiles(ctx context.Context, files []TRECFile, lim dataset.Limits, opt Options) (*TRECStream, error) {
	if lim == (dataset.Limits{}) {
		lim = dataset.DefaultLimits()
	}
	qi := -1
	for i, f := range files {
		if f.Qrels {
			if qi >= 0 {
				return nil, errors.New("itemscore: ScoreTRECFiles takes exactly one qrels file")
			}
			qi = i
		}
	}
	if qi < 0 {
		return nil, errors.New("itemscore: ScoreTRECFiles needs a qrels file")
	}
	out := &TRECStream{Inputs: make([]dataset.InputInfo, len(files))}
	var fs finding.List

	// The qrels: small next to the run, read whole like dataset.Load does.
	qf, info, qfs, err := readQrelsFile(ctx, files[qi].Path, lim.MaxLineBytes)
	if err != nil {
		return nil, err
	}
	out.Inputs[qi] = info
	fs = append(fs, qfs...)
	ds := &dataset.Dataset{Qrels: []dataset.QrelsFile{qf}, Has: map[model.Format]bool{model.FormatTRECQrels: true}}

	opt = opt.normalize()
	units, byID := buildUnits(ds)
	for i, u := range units {
		u.idx = i
	}
	// The units hold what scoring needs; the judgment lines can go (a
	// large qrels file is ~80 bytes a line).
	ds.Qrels = nil
	sc := &scorer{ds: ds, opt: opt, units: units, atomTables: map[string]*resolve.AtomTable{}, views: map[viewKey]*goldView{}}
	sc.chunks = resolve.NewChunkTable(nil)
	sc.clauses = resolve.NewClauseIndex(nil)
	sc.judgments = map[string][]model.RAGJudgment{}
	// Every gold view up front (serially: the cache is a plain map); the
	// scoring workers then only read it.
	for _, u := range units {
		sc.view(u, "")
	}

	set := &Set{Config: opt.config(), Units: []Unit{}, Runs: []RunScores{}, Resolution: []Resolved{}, Ambiguities: []Resolved{}}
	var runs []*runOut
	var names []string
	for i, f := range files {
		if f.Qrels {
			continue
		}
		rs, info, rfs, err := streamRunFile(ctx, f.Path, lim.MaxLineBytes, sc, byID)
		if err != nil {
			return nil, err
		}
		out.Inputs[i] = info
		fs = append(fs, rfs...)
		if slices.Contains(names, rs.Run) {
			return nil, ErrNotStreamable
		}
		names = append(names, rs.Run)
		if opt.Runs != nil && !slices.Contains(opt.Runs, rs.Run) {
			continue
		}
		set.Runs = append(set.Runs, *rs)
		runs = append(runs, &runOut{name: rs.Run})
	}
	for _, u := range units {
		g := sc.view(u, "")
		u.Gold = nil
		if g != nil {
			for _, r := range g.rows {
				u.Gold = append(u.Gold, report.GoldDetail{Label: r.Label, Atoms: nonNil(r.Atoms), Note: r.Problem})
			}
		}
		set.Units = append(set.Units, u.Unit)
	}
	set.Resolution, set.Ambiguities = sc.resolutionTable(runs)
	set.Metrics = presentMetrics(set, opt)
	out.Set = set
	out.Findings = fs.Normalize()
	return out, nil
}

// readQrelsFile reads and hashes a qrels file as dataset.Load does.
func readQrelsFile(ctx context.Context, name string, maxLine int64) (dataset.QrelsFile, dataset.InputInfo, finding.List, error) {
	info := dataset.InputInfo{Path: name, Format: model.FormatTRECQrels}
	f, err := os.Open(name)
	if err != nil {
		return dataset.QrelsFile{}, info, nil, err
	}
	defer f.Close()
	h := sha256.New()
	cnt := &byteCounter{}
	src := io.TeeReader(ctxRead{ctx, f}, io.MultiWriter(h, cnt))
	q, lines, fs, err := dataset.ParseQrels(src, name, maxLine)
	if err == nil {
		_, err = io.Copy(io.Discard, src)
	}
	if err != nil {
		return q, info, nil, fmt.Errorf("%s: %w", name, err)
	}
	info.Lines, info.Size, info.SHA256 = lines, cnt.n, hex.EncodeToString(h.Sum(nil))
	return q, info, fs, nil
}

type byteCounter struct{ n int64 }

func (c *byteCounter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

type ctxRead struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxRead) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// lineBlock is a run of consecutive lines handed to a parse worker.
type lineBlock struct {
	seq  int
	data []byte
	ends []int32 // end offset of line j in data
	nums []int   // its 1-based line number
}

// parsedBlock is a block's valid lines grouped by consecutive qid. Groups
// strictly inside the block are complete queries and were scored by the
// parse worker (item set); the first and the last group may continue in the
// neighbouring blocks and carry their lines (docs, ids cloned) instead.
type parsedBlock struct {
	seq    int
	groups []qgroup
	tag    string // tag of the block's first valid line
	fs     finding.List
}

type qgroup struct {
	qid    string
	docs   []retrieved // boundary groups only
	item   ItemScore   // inner groups of a known qid: the scored query
	scored bool
}

const (
	blockBytes = 1 << 20  // lines handed to a parse worker at a time
	blockLines = 48 << 10 // initial line capacity of a block
)

var blockPool = sync.Pool{New: func() any {
	return &lineBlock{data: make([]byte, 0, blockBytes+blockBytes/8), ends: make([]int32, 0, blockLines), nums: make([]int, 0, blockLines)}
}}

func newBlock(seq int) *lineBlock {
	b := blockPool.Get().(*lineBlock)
	b.seq, b.data, b.ends, b.nums = seq, b.data[:0], b.ends[:0], b.nums[:0]
	return b
}

// streamRunFile reads, hashes, parses and scores one run file. Pipeline:
// one reader (jsonl.Lines, the same line rules as dataset.ParseRun: BOM,
// CRLF, blank, too long, invalid UTF-8; sha256 on the way) cuts ~1 MiB
// blocks of lines; GOMAXPROCS workers parse each block and score the
// queries that lie wholly inside it; a combiner takes the blocks back in
// file order, joins the queries that cross block boundaries and scores
// them, checks that no qid comes back after its group ended (else
// ErrNotStreamable) and lists run-only qids in first-seen order.
func streamRunFile(ctx context.Context, name string, maxLine int64, sc *scorer, byID map[string]int) (*RunScores, dataset.InputInfo, finding.List, error) {
	info := dataset.InputInfo{Path: name, Format: model.FormatTRECRun}
	f, err := os.Open(name)
	if err != nil {
		return nil, info, nil, err
	}
	defer f.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	workers := max(1, runtime.GOMAXPROCS(0))
	blocks := make(chan *lineBlock, workers)
	parsed := make(chan *parsedBlock, workers)
	bound := trecMetrics(sc.opt)

	var (
		lines   int
		linesFs finding.List
		readErr error
		size    int64
		sum     []byte
	)
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		defer close(blocks)
		h := sha256.New()
		tr := &hashReader{r: ctxRead{ctx, f}, h: h}
		seq := 0
		cur := newBlock(seq)
		send := func() bool {
			select {
			case blocks <- cur:
			case <-ctx.Done():
				return false
			}
			seq++
			cur = newBlock(seq)
			return true
		}
		stopped := false
		lines, linesFs, readErr = jsonl.Lines(tr, name, maxLine, func(n int, line []byte) {
			if stopped {
				return
			}
			cur.data = append(cur.data, line...)
			cur.ends = append(cur.ends, int32(len(cur.data)))
			cur.nums = append(cur.nums, n)
			if len(cur.data) >= blockBytes && !send() {
				stopped = true
			}
		})
		if !stopped && len(cur.ends) > 0 {
			send()
		}
		size, sum = tr.n, h.Sum(nil)
	}()

	var pwg sync.WaitGroup
	for range workers {
		pwg.Add(1)
		go func() {
			defer pwg.Done()
			scr := &trecScratch{seen: make(map[string]struct{}, 1024)}
			for b := range blocks {
				pb := parseBlock(b, name, sc, byID, bound, scr)
				blockPool.Put(b)
				parsed <- pb
			}
		}()
	}
	go func() { pwg.Wait(); close(parsed) }()

	n := len(sc.units)
	items := make([]ItemScore, n)
	scr := &trecScratch{seen: make(map[string]struct{}, 1024)}
	var (
		pending = map[int]*parsedBlock{}
		next    int
		open    *qgroup
		closed  = map[string]bool{}
		matched = make([]bool, n)
		unknown []string
		tag     string
		fs      finding.List
		ungroup bool
	)
	closeGroup := func(g *qgroup) {
		if ungroup {
			return
		}
		if closed[g.qid] {
			ungroup = true
			cancel()
			return
		}
		closed[g.qid] = true
		ui, ok := byID[g.qid]
		if !ok {
			unknown = append(unknown, g.qid)
			return
		}
		matched[ui] = true
		if g.scored {
			items[ui] = g.item
		} else {
			items[ui] = sc.scoreTRECQuery(sc.units[ui], g.docs, "", bound, scr)
		}
	}
	for pb := range parsed {
		pending[pb.seq] = pb
		for {
			b, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			fs = append(fs, b.fs...)
			if tag == "" {
				tag = b.tag
			}
			for i := range b.groups {
				g := &b.groups[i]
				if open != nil && open.qid == g.qid && !g.scored {
					open.docs = append(open.docs, g.docs...)
					continue
				}
				if open != nil {
					closeGroup(open)
				}
				open = g
			}
		}
	}
	if open != nil {
		closeGroup(open)
	}
	<-readDone
	if ungroup {
		return nil, info, nil, ErrNotStreamable
	}
	if readErr != nil {
		return nil, info, nil, fmt.Errorf("%s: %w", name, readErr)
	}
	if err := ctx.Err(); err != nil {
		return nil, info, nil, err
	}
	info.Lines, info.Size, info.SHA256 = lines, size, hex.EncodeToString(sum)
	runName := tag
	if runName == "" {
		runName = strings.TrimSuffix(path.Base(name), path.Ext(name))
	}

	// Units without a result: Missing (worst values) when the run has a
	// result for some unit of the set, else out of the run's scope.
	rs := &RunScores{Run: runName, Items: items, Unknown: unknown, Sets: []string{}}
	hasAny := slices.Contains(matched, true)
	if hasAny {
		rs.Sets = []string{"trec"}
	}
	empty := &runOut{name: runName, byUnit: map[int]*output{}, setCaps: map[string]caps{"trec": {retrieves: true}}}
	for ui, u := range sc.units {
		switch {
		case matched[ui]:
			items[ui].Detail.Run = runName
		case hasAny:
			items[ui] = sc.scoreItem(u, ui, empty)
		default:
			items[ui] = ItemScore{OutOfScope: true, Values: map[string]float64{}, Detail: report.RunItem{Run: runName}}
		}
	}
	return rs, info, append(linesFs, fs...), nil
}

// hashReader passes reads through, hashing and counting the bytes.
type hashReader struct {
	r io.Reader
	h hash.Hash
	n int64
}

func (t *hashReader) Read(p []byte) (int, error) {
	k, err := t.r.Read(p)
	if k > 0 {
		t.n += int64(k)
		t.h.Write(p[:k])
	}
	return k, err
}

// parseBlock parses a block's lines with dataset.ParseRun's rules: '#'
// lines skipped; 6 whitespace-separated fields (strings.Fields); score a
// float64; otherwise one trec.syntax finding with ParseRun's message. The
// queries wholly inside the block are scored here (the block's bytes are
// reused once this returns: what is kept is cloned).
func parseBlock(b *lineBlock, name string, sc *scorer, byID map[string]int, bound []trecMetric, scr *trecScratch) *parsedBlock {
	pb := &parsedBlock{seq: b.seq}
	var fields [7][]byte
	start := 0
	var cur []retrieved // the current group's lines (scratch)
	var curQID []byte
	ngroups := 0
	// finish ends the current group: the first group of the block is kept
	// as lines (it may continue the previous block's last query); later
	// ones are complete queries unless they end the block (last == true).
	finish := func(last bool) {
		if curQID == nil {
			return
		}
		g := qgroup{qid: string(curQID)}
		if ngroups == 0 || last {
			g.docs = make([]retrieved, len(cur))
			for i, d := range cur {
				g.docs[i] = retrieved{id: strings.Clone(d.id), score: d.score, hasScore: true}
			}
		} else if ui, ok := byID[g.qid]; ok {
			g.item = sc.scoreTRECQuery(sc.units[ui], cur, "", bound, scr)
			g.scored = true
		}
		pb.groups = append(pb.groups, g)
		ngroups++
		cur = cur[:0]
		curQID = nil
	}
	cur = scr.lines[:0]
	for j, end := range b.ends {
		line := b.data[start:end]
		start = int(end)
		n := b.nums[j]
		var f [][]byte
		nf := 0
		if ascii(line) {
			f, nf = splitASCII(line, fields[:0])
		} else {
			fstr := strings.Fields(string(line))
			nf = len(fstr)
			f = fields[:0]
			for _, s := range fstr {
				if len(f) == cap(fields) {
					break
				}
				f = append(f, []byte(s))
			}
		}
		if nf > 0 && f[0][0] == '#' {
			continue
		}
		if nf != 6 {
			pb.fs = append(pb.fs, dataset.RuleTRECSyntax.At(name, n, "", "run line %d has %d fields; want 6: qid Q0 docno rank score tag", n, nf))
			continue
		}
		s, err := strconv.ParseFloat(bstring(f[4]), 64)
		if err != nil {
			pb.fs = append(pb.fs, dataset.RuleTRECSyntax.At(name, n, "", "run line %d: score %q is not a number", n, string(f[4])))
			continue
		}
		if pb.tag == "" {
			pb.tag = string(f[5])
		}
		if curQID == nil || string(curQID) != string(f[0]) {
			finish(false)
			curQID = f[0]
		}
		cur = append(cur, retrieved{id: bstring(f[2]), score: s, hasScore: true})
	}
	finish(true)
	scr.lines = cur[:0]
	return pb
}

func ascii(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// splitASCII is strings.Fields for an ASCII line, into f: at most cap(f)
// fields are kept, count is the number of fields (so that a line with too
// many fields is reported with its real count).
func splitASCII(line []byte, f [][]byte) ([][]byte, int) {
	i := 0
	count := 0
	for i < len(line) {
		for i < len(line) && isSpace[line[i]] {
			i++
		}
		if i == len(line) {
			break
		}
		j := i
		for j < len(line) && !isSpace[line[j]] {
			j++
		}
		count++
		if len(f) < cap(f) {
			f = append(f, line[i:j])
		}
		i = j
	}
	return f, count
}

// bstring views b as a string without copying, for a parse that does not
// keep it (block data is never written after the reader filled it).
func bstring(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// trecMetric is one retrieval metric bound to its cutoff.
type trecMetric struct {
	name string
	f    *metrics.Family
	k    int
}

// trecMetrics lists the metrics scoreRetrieval computes for a TREC unit
// (answerable, single-hop, no as_of / holder), bound once.
func trecMetrics(opt Options) []trecMetric {
	var out []trecMetric
	add := func(family string, k int) {
		f, _ := metrics.LookupFamily(family)
		out = append(out, trecMetric{name: f.Bind(k).Name, f: f, k: k})
	}
	for _, k := range opt.Cutoffs {
		for _, fam := range []string{"recall", "hit", "mrr", "ndcg", "p", "judged"} {
			add(fam, k)
		}
	}
	for _, fam := range []string{"mrr", "ndcg", "map", "rprec", "bpref"} {
		add(fam, 0)
	}
	return out
}

// trecScratch is a scoring worker's reusable buffers.
type trecScratch struct {
	seen  map[string]struct{}
	cands []metrics.Candidate
	lines []retrieved
}

// scoreTRECQuery is scoreItem + scoreRetrieval for a TREC qrels unit with a
// result, specialised for speed (reused buffers, an in-place sort) and
// giving the same ItemScore: duplicate docnos kept once (the first; flag
// "duplicate-retrieved"), every candidate scored, the canonical order of
// metrics.Canonicalize (score descending, docno descending; docnos are
// unique after the duplicate check, so the order is total and any sort
// gives it), the same metric functions, the unjudged count within Depth and
// the item browser's marks.
func (sc *scorer) scoreTRECQuery(u *unitSpec, docs []retrieved, run string, bound []trecMetric, scr *trecScratch) ItemScore {
	it := ItemScore{Values: make(map[string]float64, len(bound)), Detail: report.RunItem{Run: run}}
	g := sc.view(u, "")
	clear(scr.seen)
	cands := scr.cands[:0]
	for _, x := range docs {
		if _, dup := scr.seen[x.id]; dup {
			if !slices.Contains(it.Flags, "duplicate-retrieved") {
				it.Flags = append(it.Flags, "duplicate-retrieved")
			}
			continue
		}
		scr.seen[x.id] = struct{}{}
		c := metrics.Candidate{ID: x.id, Score: x.score, HasScore: true, Strong: x.score >= sc.opt.StrongScore}
		c.Judged, c.Grade, c.Gold = g.grade(x.id)
		cands = append(cands, c)
	}
	sortCanonical(cands)
	scr.cands = cands
	q := g.query(cands)
	for _, m := range bound {
		it.Values[m.name] = m.f.Compute(q, m.k)
	}
	it.Unjudged = metrics.Unjudged(q, sc.opt.Depth)
	if it.Unjudged > 0 {
		it.Flags = append(it.Flags, "unjudged")
	}
	for i, c := range cands {
		if i >= sc.opt.Depth {
			break
		}
		m := report.RetrievedMark{Rank: i + 1, ID: strings.Clone(c.ID), Gold: len(c.Gold) > 0}
		if c.Judged {
			gr := c.Grade
			m.Grade = &gr
		}
		it.Detail.Retrieved = append(it.Detail.Retrieved, m)
	}
	it.Detail.Scores = it.Values
	return it
}

// isSpace marks the ASCII bytes strings.Fields splits on.
var isSpace = [256]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// canonicalCmp is metrics.Canonicalize's order for scored candidates: score
// descending (NaN last), then id descending byte-wise.
func canonicalCmp(a, b *metrics.Candidate) int {
	an, bn := math.IsNaN(a.Score), math.IsNaN(b.Score)
	switch {
	case an != bn:
		if bn {
			return -1
		}
		return 1
	case a.Score != b.Score && !an:
		if a.Score > b.Score {
			return -1
		}
		return 1
	}
	return -strings.Compare(a.ID, b.ID)
}

// sortCanonical sorts cands (unique ids, so the order is total and every
// correct sort gives the same result) in canonical order. A run is usually
// written in rank order, wrong only among tied scores, so an insertion sort
// that gives up after a bounded number of moves does it in about one pass;
// anything else goes to pdqsort.
func sortCanonical(cands []metrics.Candidate) {
	budget := 4*len(cands) + 64
	for i := 1; i < len(cands); i++ {
		if canonicalCmp(&cands[i-1], &cands[i]) <= 0 {
			continue
		}
		j := i
		for j > 0 && canonicalCmp(&cands[j-1], &cands[j]) > 0 {
			cands[j-1], cands[j] = cands[j], cands[j-1]
			j--
			budget--
		}
		if budget < 0 {
			slices.SortFunc(cands, func(a, b metrics.Candidate) int { return canonicalCmp(&a, &b) })
			return
		}
	}
}
