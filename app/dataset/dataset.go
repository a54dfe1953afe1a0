// Package dataset loads every input the user gave (bundles, JSONL sets, TREC
// files, JSON/YAML companions) into one Dataset: typed records that remember
// where they came from, plus the findings that reading produced.
//
// Validation, scoring and the audit all start from a Dataset, so the CLI, the
// tests and the page see the same records.
package dataset

import (
	"io"
	"strconv"
	"strings"

	"eval752/app/finding"
	"eval752/app/inputinfo"
	"eval752/app/model"
	"eval752/app/peer"
)

// Input is one file given by the user. R must stay readable until Load
// returns; Load reads it through ReadAt only (a browser File can back it
// lazily), never as a whole.
type Input struct {
	Name   string       // as the user named it: "bundle.eval752.zip", "sets/b2.jsonl"
	R      io.ReaderAt  //
	Size   int64        //
	Format model.Format // forced format; "" = detect from content
	// InFolder: the file came with a folder the user picked (its Name is
	// its path inside it). A file of no format eval752 reads is then noted
	// (info), as in a zipped folder, not an error: the user did not pick
	// it by itself.
	InFolder bool
}

// InputInfo describes one file that was read (see inputinfo.InputInfo: the
// type lives there so the page's WASM does not link the loader).
type InputInfo = inputinfo.InputInfo

// Loc is where a record came from, in 16 bytes: the index of its file in
// the Dataset's file table (Dataset.Path names it), its 1-based line (0 for
// a whole-file JSON record) and the byte offset of that line's start in the
// file (in a bundle, in the entry's uncompressed bytes; line 1 starts at 0,
// before a byte order mark), so the line can be read again without
// scanning the lines before it. A record of an array document is at the
// line where its element starts.
type Loc struct {
	File uint32
	Line uint32
	Off  int64
}

// Where is a location as findings report it: a path (inside a bundle
// "bundle.eval752.zip!sections/a.jsonl") and a 1-based line, 0 for the file
// as a whole.
type Where struct {
	Path string `json:"path"`
	Line int    `json:"line"`
}

// String renders "path:line", or the path alone for line 0.
func (w Where) String() string {
	if w.Line > 0 {
		return w.Path + ":" + strconv.Itoa(w.Line)
	}
	return w.Path
}

// Path is the path of the file l is in, as findings report it.
func (ds *Dataset) Path(l Loc) string {
	if int(l.File) < len(ds.Files) {
		return ds.Files[l.File]
	}
	return ""
}

// Where is l as findings report it (path and line).
func (ds *Dataset) Where(l Loc) Where { return Where{Path: ds.Path(l), Line: int(l.Line)} }

// AddFile returns the index of path in the file table, adding it when it is
// new (the loader names every file it reads; a caller that builds records
// by hand names theirs).
func (ds *Dataset) AddFile(path string) uint32 {
	if ds.fileIndex == nil {
		ds.fileIndex = make(map[string]uint32, len(ds.Files))
		for i, p := range ds.Files { // a Dataset built as a literal
			if _, ok := ds.fileIndex[p]; !ok {
				ds.fileIndex[p] = uint32(i)
			}
		}
	}
	if i, ok := ds.fileIndex[path]; ok {
		return i
	}
	i := uint32(len(ds.Files))
	ds.Files = append(ds.Files, path)
	ds.fileIndex[path] = i
	return i
}

// At is the location of line (and its start offset off) of path, its file
// added to the table.
func (ds *Dataset) At(path string, line int, off int64) Loc {
	return Loc{File: ds.AddFile(path), Line: uint32(line), Off: off}
}

// Rec is a decoded record with its location. Raw is the generic decoding
// (json.Number for numbers, map[string]any / []any for containers) used by
// the schema check and by rules that need fields the typed struct lacks.
// Typed is false when the line was valid JSON but did not decode into V (the
// schema check reports why); typed rules skip such records.
type Rec[T any] struct {
	Loc
	Raw   any
	V     T
	Typed bool
}

// Asset is a non-record file inside a bundle (assets/, checkers/).
type Asset struct {
	Path string // bundle-relative: "assets/photo-001.jpg"
	Full string // as reported in findings: "bundle.eval752.zip!assets/photo-001.jpg"
	Size int64
}

// Bundle describes one loaded .eval752.zip.
type Bundle struct {
	Path      string                // the input name
	Manifest  *Rec[model.Manifest]  // nil when manifest.json is missing
	Meta      *Rec[model.Meta]      // nil when meta.json is missing
	RunConfig *Rec[model.RunConfig] // nil when absent (optional)
	Entries   []string              // every entry name, in archive order
	Assets    []Asset               // entries under assets/
	Checkers  []Asset               // entries under checkers/
	Sections  []string              // full paths of sections/*.jsonl
	SHA256    map[string]string     // entry name → hex sha256 of its bytes
	Unread    []string              // entries refused or cut short (unsafe, over a cap, corrupt): not in SHA256
}

// Dataset is everything that was loaded.
type Dataset struct {
	Inputs   []InputInfo
	Bundles  []*Bundle
	Findings finding.List // reading, JSON and schema findings (rules add theirs later)

	Items     []Rec[model.Item]
	Results   []Rec[model.Result]
	Atoms     []Rec[model.Atom]
	B2        []Rec[model.B2]
	Corpus    []Rec[model.CorpusEntry]
	Sources   []Rec[model.Source]
	V2        []Rec[model.V2Question]
	Clauses   []Rec[model.Clause]
	Verdicts  []Rec[model.Verdict]
	RAG       []Rec[model.RAGQuestion]
	Documents []Rec[model.RAGDocument]
	Pages     []Rec[model.RAGPage]
	Chunks    []Rec[model.RAGChunk]
	Judgments []Rec[model.RAGJudgment]
	Preds     []Rec[model.RAGPrediction]
	Configs   []Rec[model.RAGConfig]
	Metrics   []Rec[model.RAGMetrics] // runs/<id>/metrics.json: claimed figures
	Errors    []Rec[model.RAGError]   // runs/<id>/errors.jsonl: §9 attributions
	Grades    []Rec[model.RAGGrade]   // human answer grades (§7)
	Qrels     []QrelsFile
	Runs      []RunFile
	// Peers are the logs of other evaluation tools (Inspect AI,
	// lm-evaluation-harness, promptfoo), linked and re-checked once every
	// input is read (package peer).
	Peers []*peer.Log

	// Has records which formats were present at all (even if every record of
	// it failed), so a rule can tell "no corpus manifest given" from "empty".
	Has map[model.Format]bool

	// SchemaCapped are the locations of schema findings the findings cap
	// (Limits.MaxFindings) left out of Findings: the validator still
	// drops a rule's finding at the very value a schema finding reported
	// (one finding per defect), whether or not that schema finding was
	// listed, so the counts do not depend on the cap.
	SchemaCapped SchemaLocs

	// KeyLines maps a whole-file document (config.yaml) to the line of
	// each JSON pointer it sets, so findings about its one record can be
	// located at the key's line (see Locate).
	KeyLines map[string]map[string]int

	// Files is the file table that records' locations index (Loc.File):
	// every file a record was read from, named as findings name it.
	Files     []string
	fileIndex map[string]uint32
}

// Locate gives findings about a whole-file document that carry a pointer
// but no line (line 0) the line where that pointer, or its nearest parent
// present in the document, was written. Other findings are unchanged.
func (ds *Dataset) Locate(l finding.List) {
	if len(ds.KeyLines) == 0 {
		return
	}
	for i := range l {
		f := &l[i]
		lines := ds.KeyLines[f.Path]
		if f.Line != 0 || f.Pointer == "" || lines == nil {
			continue
		}
		for p := f.Pointer; p != ""; p = p[:strings.LastIndexByte(p, '/')] {
			if n, ok := lines[p]; ok {
				f.Line = n
				break
			}
		}
	}
}

// QrelsFile is a TREC qrels file: qid → docno → grade, with line numbers.
type QrelsFile struct {
	Path      string
	Judgments []Qrel
}

// Qrel is one qrels line.
type Qrel struct {
	Line  int
	QID   string
	DocNo string
	Grade int
}

// RunFile is a TREC run file.
type RunFile struct {
	Path  string
	Tag   string // the run tag of its first line
	Lines []RunLine
}

// RunLine is one run line; rank is kept but ignored by scoring (trec_eval does).
type RunLine struct {
	Line  int
	QID   string
	DocNo string
	Rank  int
	Score float64
	Tag   string
}

// Progress reports load progress: bytes of input read so far of the total.
type Progress struct {
	Stage string `json:"stage"` // "read", "validate", "score", "audit"
	Done  int64  `json:"done"`
	Total int64  `json:"total"`
}

// Limits bound what one input may cost to read. Every limit that is hit is a
// finding, never a crash: a hostile zip cannot exhaust memory or time.
type Limits struct {
	MaxEntries    int     // zip entries per bundle
	MaxEntryBytes int64   // uncompressed bytes of one zip entry
	MaxTotalBytes int64   // uncompressed bytes of all entries of a bundle
	MaxRatio      float64 // uncompressed/compressed size of one entry (zip bomb guard)
	MaxLineBytes  int64   // bytes of one JSONL line
	// MaxFindings is how many findings of one rule code in one file are
	// kept (the rest are counted in one summary finding, finding.Cap);
	// 0 keeps all.
	MaxFindings int
}

// DefaultLimits are generous for real benchmarks and small enough for a
// browser tab: 100k entries, 1 GiB per entry, 4 GiB in all, ratio 200, 64 MiB lines,
// 1000 findings per rule code and file.
func DefaultLimits() Limits {
	return Limits{
		MaxEntries:    100_000,
		MaxEntryBytes: 1 << 30,
		MaxTotalBytes: 4 << 30,
		MaxRatio:      200,
		MaxLineBytes:  64 << 20,
		MaxFindings:   finding.DefaultMaxFindings,
	}
}

// Options configure Load.
type Options struct {
	Limits   Limits
	Progress func(Progress) // may be nil; called from Load's goroutine
}

// HiddenInFolder reports whether rel, the path of a file inside a folder
// the user gave, lies in or is a hidden entry below it
// (inputinfo.HiddenInFolder).
func HiddenInFolder(rel string) bool { return inputinfo.HiddenInFolder(rel) }

// HiddenName reports whether a file or folder name is hidden (starts with
// ".") (inputinfo.HiddenName).
func HiddenName(name string) bool { return inputinfo.HiddenName(name) }

// SchemaLocs is a set of (path, line, JSON pointer) locations, held as
// the lines of each (path, pointer) pair: 4 bytes a location when a
// million lines miss the same key.
type SchemaLocs struct {
	lines map[[2]string]map[int32]struct{}
}

// Add records a location.
func (s *SchemaLocs) Add(path string, line int, pointer string) {
	if s.lines == nil {
		s.lines = map[[2]string]map[int32]struct{}{}
	}
	k := [2]string{path, pointer}
	m := s.lines[k]
	if m == nil {
		m = map[int32]struct{}{}
		s.lines[k] = m
	}
	m[int32(line)] = struct{}{}
}

// Has reports whether the location was recorded.
func (s *SchemaLocs) Has(path string, line int, pointer string) bool {
	_, ok := s.lines[[2]string{path, pointer}][int32(line)]
	return ok
}

// Len is the number of locations recorded.
func (s *SchemaLocs) Len() int {
	n := 0
	for _, m := range s.lines {
		n += len(m)
	}
	return n
}
