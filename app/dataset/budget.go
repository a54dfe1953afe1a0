package dataset

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"

	"eval752/app/formats"
	"eval752/app/model"
)

// The memory budget (docs/formats.md "Memory budget"): how many bytes of
// memory the whole pipeline — engine.Evaluate: load, validate, score, audit,
// what `eval752 results` and the page run — needs per byte of input, by
// format. The figures are the larger of the peak RSS over input size of
// `eval752 results` and the page's tab growth over input size (make
// bench-page: the renderer's peak RSS growth over a load, the page's fixed
// dataset.PageOverhead aside) on the scripts/gen-sets.go sets and on TREC
// runs (README "Benchmarks"), rounded up. Estimate applies them to file
// sizes before anything is read, so a front end with a hard memory ceiling
// (the page's worker: wasm32, 4 GiB) can refuse an input it cannot hold
// instead of running out of memory half way.
const (
	// JSONL / JSON records: in the page, 21.7 per input byte on 100k
	// eval752 items + one run's results (48.1 MB: the tab grew by 996
	// MiB) and 20.5–23.9 on 50k (24.0 MB, where the fixed cost
	// weighs more), 2026-12-02; natively peak RSS
	// of `eval752 results` was 12.9 on the same 100k set (620 MB) and 9.7
	// on 100k b-2 lines + atoms (56.9 MB: 553 MB), 2026-12-01 (23.9 and
	// 25.4 before records were kept compact). The page keeps the same
	// records as the CLI; its collector runs single-threaded in a memory
	// that never shrinks, so garbage between collections costs more.
	budgetRecords = 23.0
	// TREC run or qrels lines read in memory (with other formats, without
	// a qrels file, or two runs of one run name; plain pairs are streamed:
	// EstimateStreamedTREC): 11.7 GiB for a 1 GB run + qrels pair (issue
	// 10's measurement), 12.6 per byte
	budgetTREC = 13.0
)

// The budget of plain TREC inputs read on the streaming path
// (engine.StreamsTREC: one qrels file and run files, scored by
// itemscore.ScoreTRECFiles without holding the run lines). What it keeps
// grows with the queries — the qrels' units and, per run, each query's
// values and the item browser's top-Depth ranking — not with the run's
// lines: a run's bytes cost only the blocks in flight. `eval752 results`
// natively (peak RSS, gen-trec-bench pairs, 50 judgments per query,
// 2026-12-02): 1,000 / 3,000 / 10,000 queries of 1,000 ranked docs
// (qrels 0.84 / 2.64 / 8.94 MB, runs 33 / 101 / 338 MB) peaked at 86 /
// 175 / 539 MiB; 3,000 queries of 100 docs (a 10× smaller run) at 178
// MiB, the same as of 1,000; two runs of them at 301 MiB. Per qrels byte
// that is 12 for the units plus 49 for each run (the 3,000 → 10,000 slope
// with one run is 61, the second run adds 123 MiB / 2.64 MB = 49), over
// a fixed 20–40 MiB. In the page (make bench-page, 2026-12-02) the
// 3,000-query pair grew the renderer by 187 MiB (peak 401 MiB) where this
// estimate without a factor gives 228 MB: the page keeps the same
// per-query values (the UI gets only the report, not the rankings), but
// its single-threaded collector runs in a heap that never shrinks, held to
// the estimate (workside.HeapLimit). streamPageFactor 1.5 is the margin
// for that and for larger live sets (natively 10,000 queries already ran
// at the 512 MiB soft limit of engine's streamMemLimit).
const (
	streamFixed        = 64 << 20 // blocks in flight, the scorer, the runtime
	streamPerQrelsByte = 12.0     // the units (gold labels) per qrels byte
	streamPerRunQrels  = 49.0     // per run, per qrels byte: its per-query results
	streamPageFactor   = 1.5      // margin of the page over native
)

// PageOverhead is what a load costs the page's tab beyond the pipeline's
// budget: the core worker's compiled WebAssembly code and runtime, its
// heap's floor (the worker lets the collector grow the heap to 256 MiB
// before it holds it to the estimate) and the UI's copy of the result.
// Measured on small sets, where it dominates (make bench-page,
// TestLargeSetInBudget, 2026-12-02): 10k eval752 items + one run's results
// (4.8 MB) grow the renderer process's peak RSS by 241–263 MB, 130–150 MB
// more than 23× their size; over 13× the input (the records budget then)
// the excess was 135–206 MiB on 10k / 20k / 50k. 320 MiB leaves half as
// much again as margin, so the scaled test does not flake on a loaded
// machine. The page refuses an input when its estimate plus this is
// over its limit.
const PageOverhead int64 = 320 << 20

var budgetPerByte = map[model.Format]float64{
	model.FormatTRECRun:   budgetTREC,
	model.FormatTRECQrels: budgetTREC,
}

// BudgetPerByte is the documented memory need per input byte of format f
// (records of an unknown JSON format count as budgetRecords; assets, which
// are only hashed, as 0 — see Estimate).
func BudgetPerByte(f model.Format) float64 {
	if v, ok := budgetPerByte[f]; ok {
		return v
	}
	return budgetRecords
}

// EstimatePart is one file's share of an Estimate.
type EstimatePart struct {
	Path    string       `json:"path"`
	Format  model.Format `json:"format"` // detected (plain files) or guessed from the name (bundle entries)
	Size    int64        `json:"size"`   // uncompressed bytes
	PerByte float64      `json:"per_byte"`
}

// Bytes is the part's estimated memory.
func (p EstimatePart) Bytes() int64 { return int64(float64(p.Size) * p.PerByte) }

// Estimate is the memory the pipeline is expected to need for some inputs.
type Estimate struct {
	Bytes int64          `json:"bytes"`
	Parts []EstimatePart `json:"parts"` // largest first
	// Streamed: plain TREC inputs the engine streams (EstimateStreamedTREC)
	Streamed bool `json:"streamed,omitempty"`
}

// EstimateStreamedTREC sizes the memory engine.Evaluate needs for plain
// TREC inputs it streams (engine.StreamsTREC says which; the caller
// decides, as dataset cannot see the engine): streamFixed plus, per qrels
// byte, streamPerQrelsByte and streamPerRunQrels for each run, all times
// streamPageFactor. The run files are parts at 0 per byte: their lines are
// never held. The qrels part carries the whole per-byte figure (PerByte);
// the fixed cost counts in Bytes only. Nothing is read.
func EstimateStreamedTREC(inputs []Input, qrels string) Estimate {
	var e Estimate
	var q int64
	runs := 0
	for _, in := range inputs {
		if in.Name == qrels {
			q = in.Size
			continue
		}
		runs++
	}
	per := (streamPerQrelsByte + streamPerRunQrels*float64(runs)) * streamPageFactor
	e.Parts = append(e.Parts, EstimatePart{Path: qrels, Format: model.FormatTRECQrels, Size: q, PerByte: per})
	for _, in := range inputs {
		if in.Name != qrels {
			e.Parts = append(e.Parts, EstimatePart{Path: in.Name, Format: model.FormatTRECRun, Size: in.Size, PerByte: 0})
		}
	}
	e.Bytes = int64(streamFixed * streamPageFactor)
	for _, p := range e.Parts {
		e.Bytes += p.Bytes()
	}
	e.Streamed = true
	return e
}

// Estimate sizes the memory engine.Evaluate would need for inputs, from their
// sizes and the budget per format, reading only each plain file's first 64
// KiB (format detection) and each bundle's central directory (entry sizes;
// an entry's format is guessed from its name). It never fails on content: a
// file it cannot read counts with the records budget.
func EstimateInputs(ctx context.Context, inputs []Input) (Estimate, error) {
	var e Estimate
	for _, in := range inputs {
		if err := ctx.Err(); err != nil {
			return e, err
		}
		if in.R == nil {
			continue
		}
		if isZipInput(in) {
			zr, err := zip.NewReader(in.R, in.Size)
			if err != nil {
				e.Parts = append(e.Parts, EstimatePart{Path: in.Name, Format: model.FormatBundle, Size: in.Size, PerByte: budgetRecords})
				continue
			}
			for _, f := range zr.File {
				if f.FileInfo().IsDir() {
					continue
				}
				fm, per := entryBudget(f.Name)
				if per > 0 {
					e.Parts = append(e.Parts, EstimatePart{Path: in.Name + "!" + f.Name, Format: fm, Size: int64(f.UncompressedSize64), PerByte: per})
				}
			}
			continue
		}
		head := make([]byte, min(in.Size, headSize))
		n, err := in.R.ReadAt(head, 0)
		if err != nil && err != io.EOF {
			return e, fmt.Errorf("%s: %w", in.Name, err)
		}
		f := in.Format
		if f == "" {
			f = formats.Detect(in.Name, head[:n], int64(n) >= in.Size).Format
		}
		e.Parts = append(e.Parts, EstimatePart{Path: in.Name, Format: f, Size: in.Size, PerByte: BudgetPerByte(f)})
	}
	sort.SliceStable(e.Parts, func(i, j int) bool { return e.Parts[i].Bytes() > e.Parts[j].Bytes() })
	for _, p := range e.Parts {
		e.Bytes += p.Bytes()
	}
	return e, nil
}

// entryBudget guesses a bundle entry's format from its name: records for
// JSON / JSONL / YAML, TREC for TREC names, nothing (0) for assets and
// checkers, which are hashed as they stream and not kept.
func entryBudget(name string) (model.Format, float64) {
	base := strings.ToLower(path.Base(name))
	switch path.Ext(base) {
	case ".jsonl", ".json", ".yaml", ".yml":
		return model.FormatUnknown, budgetRecords
	case ".tsv", ".qrels", ".run", ".trec":
		return model.FormatTRECRun, budgetTREC
	}
	if isTRECName(name) && path.Ext(base) == "" {
		return model.FormatTRECRun, budgetTREC
	}
	return model.FormatUnknown, 0
}
