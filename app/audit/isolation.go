package audit

import (
	"strings"
	"sync"
	"weak"

	"eval752/app/dataset"
	"eval752/app/finding"
)

// SplitIsolation runs the split-isolation gates of seed 003 §3.3 and §4.5 —
// the audit.leak-* rules: questions copied across splits, exact and near
// duplicate documents and chunks across splits, a duplicate_family_id split
// across splits, gold answers inside the retrievable corpus — and returns
// their findings (sorted, de-duplicated) with the rules' severities. SPEC
// §3 puts these gates in validation, so `validate` (engine.Validate) runs
// them and exits 1 on their errors; the audit shows the same pairs in its
// leakage table.
//
// The work is the audit's own leakage pass (MinHash candidates, no second
// implementation). So that validating and then auditing one dataset does not
// pay for it twice, the result is kept for ds (one dataset at a time) and
// Audit takes it when it audits that same dataset with the same leakage
// options.
func SplitIsolation(ds *dataset.Dataset, opt Options) finding.List {
	if ds == nil {
		return nil
	}
	opt = opt.withDefaults()
	pairs, fs := leakage(ds, queries(ds), corpusPassages(ds), opt)
	fs = fs.Normalize()
	isolationMemo.put(ds, leakKeyOf(opt), pairs, fs)
	return append(finding.List(nil), fs...)
}

// leakKey is every option the leakage pass reads.
type leakKey struct {
	minHashes, questionShingle, docShingle, minLeakChars int
	seed                                                 uint64
	questionNear, docNear, chunkNear                     float64
	refusalPhrases                                       string
}

func leakKeyOf(opt Options) leakKey {
	return leakKey{minHashes: opt.MinHashes, questionShingle: opt.QuestionShingle, docShingle: opt.DocShingle,
		minLeakChars: opt.MinLeakChars, seed: opt.Seed, questionNear: opt.QuestionNear, docNear: opt.DocNear,
		chunkNear: opt.ChunkNear, refusalPhrases: strings.Join(opt.RefusalPhrases, "\x00")}
}

// memo holds the last SplitIsolation result: its dataset, options, pairs
// and findings. take hands it over once (and forgets it), so a dataset is
// not kept alive by an audit that already used it. The dataset is held by
// a weak pointer: a caller that validates and never audits (validate,
// score) must not keep every record alive through the memo (at 1M items
// that was the whole loaded dataset during scoring).
type memo struct {
	mu    sync.Mutex
	ds    weak.Pointer[dataset.Dataset]
	key   leakKey
	pairs []leakPair
	fs    finding.List
}

var isolationMemo memo

func (m *memo) put(ds *dataset.Dataset, key leakKey, pairs []leakPair, fs finding.List) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ds, m.key, m.pairs, m.fs = weak.Make(ds), key, pairs, fs
}

func (m *memo) take(ds *dataset.Dataset, key leakKey) ([]leakPair, finding.List, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ds.Value() != ds || ds == nil || m.key != key {
		return nil, nil, false
	}
	pairs, fs := m.pairs, m.fs
	m.ds, m.pairs, m.fs = weak.Pointer[dataset.Dataset]{}, nil, nil
	return pairs, fs, true
}
