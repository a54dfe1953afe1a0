package itemscore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"path"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/formats"
	"eval752/app/jsonl"
	"eval752/app/metrics"
	"eval752/app/model"
	"eval752/app/report"
	"eval752/app/trecio"
)

// TRECFile is one plain TREC input of ScoreTRECFiles: a qrels file or a run
// file, read through R (an *os.File, the page's Blob) from offset 0 to
// Size, and named as the user named it (Name is the finding path, the
// Unit.Loc path and the report's input path, as dataset.Input's Name).
type TRECFile struct {
	Name  string
	R     io.ReaderAt
	Size  int64
	Qrels bool
}

// TRECStream is what ScoreTRECFiles produced: the same Set, inputs and
// findings that dataset.Load followed by Score would give on those files.
type TRECStream struct {
	Set      *Set
	Inputs   []dataset.InputInfo // in the order of the files given
	Findings finding.List        // normalized, as Dataset.Findings
	// Records counts, per file (in the order given), the lines that were
	// read as records: the judgments of the qrels (repeated ones included)
	// and the run lines, as dataset.Load keeps them (len(Judgments),
	// len(Lines)).
	Records []int
	// Dups are the repeated (query, docno) pairs of each file, in file
	// order: what validate's trec.run-duplicate-docno and
	// trec.qrels-duplicate rules report on the loaded records.
	Dups []TRECDup
}

// TRECDup is a (query, docno) pair listed again at Line of Path, first at
// line First. For a qrels file, Grade and FirstGrade are the two grades.
type TRECDup struct {
	Path              string
	Line, First       int
	QID, DocNo        string
	Qrels             bool
	Grade, FirstGrade int
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
// malformed lines are trec.syntax findings and reading goes on): lines are
// read with jsonl.Lines's and ParseQrels / ParseRun's rules, units are built
// as buildUnits builds them, and each query is scored by scoreTRECQuery —
// scoreItem + scoreRetrieval specialised to a TREC unit, calling the same
// gold view and metric functions (units without a result go through
// scoreItem itself). app/cli's tests compare the two paths' reports byte for
// byte on the reference cases and on random inputs with every kind of bad
// line. Runs are scored one after the other, in the order given.
//
// It returns ErrNotStreamable for an ungrouped run or a repeated run name,
// and an error when a file cannot be read. A panic while reading (on any of
// its goroutines) is re-panicked on the caller's as a *dataset.ReadPanic
// naming the file, as dataset.Load does, for the engine's panic net.
func ScoreTRECFiles(ctx context.Context, files []TRECFile, lim dataset.Limits, opt Options) (_ *TRECStream, err error) {
	if lim == (dataset.Limits{}) {
		lim = dataset.DefaultLimits()
	}
	reading := ""
	defer func() {
		if p := recover(); p != nil {
			if rp, ok := p.(*dataset.ReadPanic); ok {
				panic(rp)
			}
			panic(&dataset.ReadPanic{File: reading, Value: p, Stack: debug.Stack()})
		}
	}()
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
	out := &TRECStream{Inputs: make([]dataset.InputInfo, len(files)), Records: make([]int, len(files))}
	var fs finding.List

	// The qrels: small next to the run, read whole (as dataset.Load does)
	// straight into units (as buildUnits makes them).
	ds := &dataset.Dataset{Has: map[model.Format]bool{model.FormatTRECQrels: true}}
	reading = files[qi].Name
	if dataset.TestHookRead != nil {
		dataset.TestHookRead(reading)
	}
	units, byID, info, qfs, qn, qdups, err := readQrelsUnits(ctx, files[qi], lim.MaxLineBytes)
	if err != nil {
		return nil, err
	}
	out.Inputs[qi], out.Records[qi] = info, qn
	fs = append(fs, qfs...)
	dups := map[int][]TRECDup{qi: qdups}

	opt = opt.normalize()
	sc := newScorer(ds, opt, units)
	// Every gold view up front (built in parallel, cached serially in unit
	// order as sc.view would); the scoring workers then only read the cache.
	views := make([]*goldView, len(units))
	parallel(len(units), func(i int) { views[i] = trecGold(units[i].trec) })
	for i, u := range units {
		key := viewKey{unit: u.idx}
		sc.views[key] = views[i]
		sc.viewOrder = append(sc.viewOrder, key)
	}

	set := &Set{Config: opt.config(), Units: []Unit{}, Runs: []RunScores{}, Resolution: []Resolved{}, Ambiguities: []Resolved{}}
	var runs []*runOut
	var names []string
	for i, f := range files {
		if f.Qrels {
			continue
		}
		reading = f.Name
		rs, info, rfs, rn, rdups, err := streamRunFile(ctx, f, lim.MaxLineBytes, sc, byID)
		if err != nil {
			return nil, err
		}
		out.Inputs[i], out.Records[i] = info, rn
		fs = append(fs, rfs...)
		dups[i] = rdups
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
	sc.finishSet(set, runs, "")
	out.Set = set
	for i := range files {
		out.Dups = append(out.Dups, dups[i]...)
	}
	out.Findings = fs.Normalize()
	return out, nil
}

// readQrelsUnits reads and hashes a qrels file with dataset.ParseQrels's
// rules (jsonl.Lines; '#' lines skipped; a "qid 0 docno grade" header on
// the first line skipped; 4 fields with an integer grade, else one
// trec.syntax finding) and builds its units as buildUnits does — one per
// qid, qids in byte order, the location of the qid's first judgment, a
// docno's last grade winning — without the intermediate list of judgments.
func readQrelsUnits(ctx context.Context, in TRECFile, maxLine int64) ([]*unitSpec, map[string]int, dataset.InputInfo, finding.List, int, []TRECDup, error) {
	name := in.Name
	info := dataset.InputInfo{Path: name, Format: model.FormatTRECQrels}
	src := &hashReader{r: ctxRead{ctx, io.NewSectionReader(in.R, 0, in.Size)}, h: sha256.New()}
	// the first judgment of each (qid, docno), for the duplicate check
	type firstJudged struct{ line, grade int }
	firsts := map[[2]string]firstJudged{}
	var dups []TRECDup
	records := 0
	byQID := map[string]*unitSpec{}
	var order []string
	var lfs, fs finding.List
	qp := trecio.QrelsParser{Mode: trecio.Strict, Layout: trecio.QrelsTREC(formats.IsQrelsHeader)}
	var rec trecio.Record
	var is trecio.Issue
	lines, err := trecio.Scan(src, trecio.Strict, maxLine, func(ln, off int64, line []byte) {
		n := int(ln)
		switch qp.Parse(line, &rec, &is) {
		case trecio.Skip, trecio.Header:
			return
		case trecio.Bad:
			is.Line, is.Offset = ln, off
			fs = append(fs, dataset.TRECFinding(name, &is))
			return
		}
		records++
		g := int(rec.Grade)
		u, ok := byQID[string(rec.QID)]
		if !ok {
			qid := string(rec.QID)
			u = &unitSpec{trec: &trecUnit{grades: map[string]int{}}, Unit: Unit{ID: qid, Format: model.FormatTRECQrels, Set: "trec",
				Loc: dataset.Where{Path: name, Line: n}, Answerable: true, Strata: map[string]string{"set": "trec"}}}
			byQID[qid] = u
			order = append(order, qid)
		}
		if _, dup := u.trec.grades[string(rec.DocNo)]; dup {
			u.trec.grades[string(rec.DocNo)] = g
			f := firsts[[2]string{u.ID, string(rec.DocNo)}]
			dups = append(dups, TRECDup{Path: name, Line: n, First: f.line, QID: u.ID, DocNo: string(rec.DocNo), Qrels: true, Grade: g, FirstGrade: f.grade})
			return
		}
		doc := string(rec.DocNo)
		u.trec.docs = append(u.trec.docs, doc)
		u.trec.grades[doc] = g
		firsts[[2]string{u.ID, doc}] = firstJudged{n, g}
	}, func(is *trecio.Issue) { lfs = append(lfs, dataset.TRECFinding(name, is)) })
	if err == nil {
		_, err = io.Copy(io.Discard, src)
	}
	if err != nil {
		return nil, nil, info, nil, 0, nil, fmt.Errorf("%s: %w", name, err)
	}
	info.Lines, info.Size, info.SHA256 = int(lines), src.n, hex.EncodeToString(src.h.Sum(nil))
	slices.Sort(order)
	units := make([]*unitSpec, len(order))
	byID := make(map[string]int, len(order))
	for i, q := range order {
		units[i] = byQID[q]
		byID[q] = i
	}
	return units, byID, info, append(lfs, fs...), records, dups, nil
}

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

// parsedBlock is a block's valid lines grouped by consecutive qid. Groups
// strictly inside the block are complete queries and were scored by the
// parse worker (item set); the first and the last group may continue in the
// neighbouring blocks and carry their lines (docs, ids cloned) instead.
type parsedBlock struct {
	seq    int
	lines  int // lines in the block (blank and bad ones included)
	valid  int // lines read as records
	groups []qgroup
	tag    string         // tag of the block's first valid line
	issues []trecio.Issue // located within the block (Line)
	dups   []TRECDup      // of the inner groups; lines within the block
}

type qgroup struct {
	qid    string
	docs   []retrieved // boundary groups only
	lines  []int       // boundary groups only: each doc's line (within its block, then in the file)
	item   ItemScore   // inner groups of a known qid: the scored query
	scored bool
}

// runDups lists the docnos of one query's run lines (docs at lines) that
// repeat an earlier one, as validate's trec.run-duplicate-docno reports
// them: each repetition at its line, with the line of the first.
func runDups(path, qid string, docs []retrieved, lines []int) []TRECDup {
	first := make(map[string]int, len(docs))
	var out []TRECDup
	for i, d := range docs {
		if f, dup := first[d.id]; dup {
			out = append(out, TRECDup{Path: path, Line: lines[i], First: f, QID: qid, DocNo: strings.Clone(d.id)})
			continue
		}
		first[d.id] = lines[i]
	}
	return out
}

const blockBytes = 1 << 20 // bytes read and handed to a parse worker at a time

var blockPool = sync.Pool{New: func() any { b := make([]byte, 0, blockBytes+blockBytes/4); return &b }}

// readBlocks reads r to the end in blocks of whole lines (trecio.Reader,
// with jsonl.Lines's line cap) and sends them in order. It stops early when
// ctx is done.
func readBlocks(ctx context.Context, r io.Reader, maxLine int64, out chan<- *trecio.Block) error {
	rd := trecio.NewReader(r, blockBytes, maxLine)
	for {
		b, err := rd.Next((*blockPool.Get().(*[]byte))[:0])
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		select {
		case out <- &b:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// streamRunFile reads, hashes, parses and scores one run file. Pipeline:
// one reader cuts the file into ~1 MiB blocks of whole lines (hashing them
// on the way); GOMAXPROCS workers split, check and parse each block with
// jsonl.Lines's and dataset.ParseRun's rules and score the queries that lie
// wholly inside it; a combiner takes the blocks back in file order, numbers
// the lines of the findings, joins the queries that cross block boundaries
// and scores them, checks that no qid comes back after its group ended
// (else ErrNotStreamable) and lists run-only qids in first-seen order.
func streamRunFile(ctx context.Context, in TRECFile, maxLine int64, sc *scorer, byID map[string]int) (*RunScores, dataset.InputInfo, finding.List, int, []TRECDup, error) {
	name := in.Name
	info := dataset.InputInfo{Path: name, Format: model.FormatTRECRun}
	if maxLine <= 0 {
		maxLine = jsonl.DefaultMaxLine
	}
	f := io.NewSectionReader(in.R, 0, in.Size)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	workers := max(1, runtime.GOMAXPROCS(0))
	blocks := make(chan *trecio.Block, workers)
	parsed := make(chan *parsedBlock, workers)
	// What scoreRetrieval computes for a TREC unit (answerable, single-hop,
	// no as_of / holder), bound once.
	bound := retrievalMetrics(sc.opt.Cutoffs, false)

	hr := &hashReader{r: ctxRead{ctx, f}, h: sha256.New()}
	// a panic on a goroutine below stops the pipeline and is re-panicked
	// on the caller's (ScoreTRECFiles names the file)
	var (
		panicMu  sync.Mutex
		panicked *dataset.ReadPanic
	)
	catch := func() {
		if p := recover(); p != nil {
			panicMu.Lock()
			if panicked == nil {
				panicked = &dataset.ReadPanic{File: name, Value: p, Stack: debug.Stack()}
			}
			panicMu.Unlock()
			cancel()
		}
	}
	var readErr error
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		defer close(blocks)
		defer catch()
		if dataset.TestHookRead != nil {
			dataset.TestHookRead(name)
		}
		readErr = readBlocks(ctx, hr, maxLine, blocks)
	}()

	var pwg sync.WaitGroup
	for range workers {
		pwg.Add(1)
		go func() {
			defer pwg.Done()
			defer catch()
			scr := &trecScratch{seen: make(map[string]struct{}, 1024)}
			for b := range blocks {
				pb := parseBlock(b, name, maxLine, sc, byID, bound, scr)
				if b.Data != nil {
					d := b.Data[:0]
					blockPool.Put(&d)
				}
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
		base    int // lines before the next block
		open    *qgroup
		closed  = map[string]bool{}
		matched = make([]bool, n)
		unknown []string
		tag     string
		fs      finding.List
		ungroup bool
		records int
		dups    []TRECDup
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
			if !g.scored {
				dups = append(dups, runDups(name, g.qid, g.docs, g.lines)...)
			}
			return
		}
		matched[ui] = true
		if g.scored {
			items[ui] = g.item
		} else {
			items[ui] = sc.scoreTRECQuery(sc.units[ui], g.docs, "", bound, scr)
			if slices.Contains(items[ui].Flags, "duplicate-retrieved") {
				dups = append(dups, runDups(name, g.qid, g.docs, g.lines)...)
			}
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
			for i := range b.issues {
				is := &b.issues[i]
				is.Line += int64(base)
				fs = append(fs, dataset.TRECFinding(name, is))
			}
			for _, d := range b.dups {
				d.Line, d.First = base+d.Line, base+d.First
				dups = append(dups, d)
			}
			start := base
			base += b.lines
			records += b.valid
			if tag == "" {
				tag = b.tag
			}
			for i := range b.groups {
				g := &b.groups[i]
				for j := range g.lines {
					g.lines[j] += start
				}
				if open != nil && open.qid == g.qid && !g.scored {
					open.docs = append(open.docs, g.docs...)
					open.lines = append(open.lines, g.lines...)
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
	if panicked != nil {
		panic(panicked)
	}
	if ungroup {
		return nil, info, nil, 0, nil, ErrNotStreamable
	}
	if readErr != nil {
		return nil, info, nil, 0, nil, fmt.Errorf("%s: %w", name, readErr)
	}
	if err := ctx.Err(); err != nil {
		return nil, info, nil, 0, nil, err
	}
	info.Lines, info.Size, info.SHA256 = base, hr.n, hex.EncodeToString(hr.h.Sum(nil))
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
	empty := &runOut{name: runName, setCaps: map[string]caps{"trec": {retrieves: true}}}
	for ui, u := range sc.units {
		switch {
		case matched[ui]:
		case hasAny:
			items[ui] = sc.scoreItem(u, ui, empty)
		default:
			items[ui] = ItemScore{OutOfScope: true, Values: report.Values{}}
		}
	}
	return rs, info, fs, records, dups, nil
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

// parseBlock splits a block into lines and parses each in trecio's Strict
// mode (jsonl.Lines's and dataset.ParseRun's rules: CRLF, a BOM on line 1,
// blank lines skipped, too long and invalid UTF-8 lines reported and
// skipped; '#' lines skipped; 6 strings.Fields fields; score a finite
// float64; otherwise one trec.syntax issue). The queries wholly inside the
// block are scored here (the block's bytes are reused once this returns:
// what is kept is cloned).
func parseBlock(b *trecio.Block, name string, maxLine int64, sc *scorer, byID map[string]int, bound []boundMetric, scr *trecScratch) *parsedBlock {
	pb := &parsedBlock{seq: b.Seq}
	var cur []retrieved // the current group's lines (scratch)
	var curLines []int  // and their line numbers within the block
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
			g.lines = slices.Clone(curLines)
		} else if ui, ok := byID[g.qid]; ok {
			g.item = sc.scoreTRECQuery(sc.units[ui], cur, "", bound, scr)
			g.scored = true
			if slices.Contains(g.item.Flags, "duplicate-retrieved") {
				pb.dups = append(pb.dups, runDups(name, g.qid, cur, curLines)...)
			}
		} else {
			// a query the qrels do not judge: not scored, but its lines
			// are checked as validate checks every run line
			g.scored = true
			pb.dups = append(pb.dups, runDups(name, g.qid, cur, curLines)...)
		}
		pb.groups = append(pb.groups, g)
		ngroups++
		cur = cur[:0]
		curLines = curLines[:0]
		curQID = nil
	}
	cur = scr.lines[:0]
	curLines = scr.lineNos[:0]
	var rec trecio.Record
	var is trecio.Issue
	it := b.Lines(trecio.Strict, maxLine)
	for {
		st, ok := it.Next()
		if !ok {
			break
		}
		if st == trecio.Bad {
			pb.issues = append(pb.issues, it.Issue)
			continue
		}
		switch trecio.ParseRun(trecio.Strict, it.Line, &rec, &is) {
		case trecio.Skip:
			continue
		case trecio.Bad:
			is.Line, is.Offset = it.Rel, it.Offset
			pb.issues = append(pb.issues, is)
			continue
		}
		if pb.tag == "" {
			pb.tag = string(rec.Tag)
		}
		if curQID == nil || string(curQID) != string(rec.QID) {
			finish(false)
			curQID = rec.QID
		}
		cur = append(cur, retrieved{id: trecio.View(rec.DocNo), score: rec.Score, hasScore: true})
		curLines = append(curLines, int(it.Rel))
		pb.valid++
	}
	finish(true)
	pb.lines = int(it.Count())
	scr.lines = cur[:0]
	scr.lineNos = curLines[:0]
	return pb
}

// trecScratch is a scoring worker's reusable buffers.
type trecScratch struct {
	seen    map[string]struct{}
	cands   []metrics.Candidate
	lines   []retrieved
	lineNos []int
}

// scoreTRECQuery is scoreItem + scoreRetrieval for a TREC qrels unit with a
// result. Only the candidate list is specialised for speed (reused buffers,
// no unknown-id / time / holder checks, which a TREC unit never has, and an
// in-place sort: docnos are unique after firstRetrieval, so the canonical
// order of metrics.Canonicalize — score descending, docno descending — is
// total and any sort gives it); the duplicate check, the metrics with the
// unjudged count (scoreRanking) and the item browser's marks
// (appendRetrieved) are scoreRetrieval's own.
func (sc *scorer) scoreTRECQuery(u *unitSpec, docs []retrieved, run string, bound []boundMetric, scr *trecScratch) ItemScore {
	it := ItemScore{Values: make(report.Values, 0, len(bound))}
	g := sc.view(u, "")
	clear(scr.seen)
	cands := scr.cands[:0]
	for _, x := range docs {
		if !firstRetrieval(scr.seen, x.id, &it) {
			continue
		}
		c := metrics.Candidate{ID: x.id, Score: x.score, HasScore: true, Strong: x.score >= sc.opt.StrongScore}
		c.Judged, c.Grade, c.Gold = g.grade(x.id)
		cands = append(cands, c)
	}
	sortCanonical(cands)
	scr.cands = cands
	sc.scoreRanking(g.query(cands), bound, &it)
	appendRetrieved(&it, cands, sc.opt.Depth)
	return it
}

// canonicalCmp is metrics.Canonicalize's order (trecio.CompareRanked): score
// descending (NaN last), then id descending byte-wise.
func canonicalCmp(a, b *metrics.Candidate) int {
	return trecio.CompareRanked(a.Score, a.ID, b.Score, b.ID)
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
