package model

import "encoding/json"

// Item is one eval752 question (seed 004). Fields and meanings are the seed's.
type Item struct {
	ID      string     `json:"id"`
	Type    string     `json:"type"` // mcq_single, mcq_multi, freeform, code, judge_pairwise
	Inputs  ItemInputs `json:"inputs"`
	Choices []string   `json:"choices,omitempty"`
	Answer  Raw        `json:"answer"` // string (mcq_single, freeform, code, judge_pairwise) or []string (mcq_multi)
	// *ItemGrading holds checker and criteria (promoted: encoding/json
	// reads and writes them as fields of the item, and allocates it only
	// when one is present). Read them with Item.CheckerRaw /
	// Item.CriteriaRaw: the pointer is nil for most items.
	*ItemGrading
	Meta map[string]any `json:"meta,omitempty"` // free; eval752 reads source, difficulty, section, split, aliases, models
}

// ItemGrading is what grades a code or judged item: its checker and its
// criteria. It is a pointer of Item so that the great majority of items,
// which have neither, keep 8 bytes instead of 48 (docs/formats.md "Memory
// budget").
type ItemGrading struct {
	Checker  Raw `json:"checker,omitempty"`
	Criteria Raw `json:"criteria,omitempty"`
}

// CheckerRaw is the item's checker as written (nil when absent).
func (it *Item) CheckerRaw() Raw {
	if it.ItemGrading == nil {
		return nil
	}
	return it.Checker
}

// CriteriaRaw is the item's criteria as written (nil when absent).
func (it *Item) CriteriaRaw() Raw {
	if it.ItemGrading == nil {
		return nil
	}
	return it.Criteria
}

// ItemInputs are the prompt and the asset paths, relative to the bundle root
// ("assets/photo-001.jpg"). Audio and video paths sit behind a pointer
// (*ItemAV, promoted: encoding/json reads them as fields of inputs and
// allocates it only when one is present); read them with AudioPaths and
// VideoPaths.
type ItemInputs struct {
	Text   string   `json:"text"`
	Images []string `json:"images,omitempty"`
	*ItemAV
}

// ItemAV are an item's audio and video paths.
type ItemAV struct {
	Audio []string `json:"audio,omitempty"`
	Video []string `json:"video,omitempty"`
}

// AudioPaths are the item's audio paths (nil when none).
func (in ItemInputs) AudioPaths() []string {
	if in.ItemAV == nil {
		return nil
	}
	return in.Audio
}

// VideoPaths are the item's video paths (nil when none).
func (in ItemInputs) VideoPaths() []string {
	if in.ItemAV == nil {
		return nil
	}
	return in.Video
}

// Item types of seed 004.
const (
	TypeMCQSingle     = "mcq_single"
	TypeMCQMulti      = "mcq_multi"
	TypeFreeform      = "freeform"
	TypeCode          = "code"
	TypeJudgePairwise = "judge_pairwise"
)

// Manifest is a bundle's manifest.json: "包格式版本和类型" (format version and
// kind). Seed 004 names no fields; eval752 defines these and accepts the
// aliases "version" and "type" for a hand-written manifest.
type Manifest struct {
	FormatVersion any    `json:"format_version,omitempty"` // 1 (number or string)
	Version       any    `json:"version,omitempty"`        // alias of format_version
	Kind          string `json:"kind,omitempty"`           // "dataset" or "results"
	Type          string `json:"type,omitempty"`           // alias of kind
	// Files optionally lists the bundle's entries with their sha256; when
	// present every listed file must exist and match, and every section must be listed.
	Files []ManifestFile `json:"files,omitempty"`
}

// ManifestFile is one entry listed by the manifest.
type ManifestFile struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256,omitempty"`
	Format string `json:"format,omitempty"` // force a section's format, e.g. "b2.annotation"
	Lines  int    `json:"lines,omitempty"`
}

// Meta is a bundle's meta.json: "数据集元数据（名称、描述、版本哈希）".
type Meta struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// VersionHash is "sha256:<hex>" (or bare hex, or a prefix of ≥ 8 hex
	// digits) of the bundle's content; see bundle.VersionHash for the recipe.
	VersionHash string         `json:"version_hash,omitempty"`
	Version     string         `json:"version,omitempty"`
	License     string         `json:"license,omitempty"`
	Extra       map[string]any `json:"-"`
}

// RunConfig is run_config.json: the configuration snapshot of the run(s) in
// results.jsonl. Free-form beyond these names; reports cite it whole.
type RunConfig struct {
	Runs []RunInfo `json:"runs,omitempty"`
	// Refusal overrides the refusal-detection phrases for scoring.
	RefusalPhrases []string `json:"refusal_phrases,omitempty"`
	Seed           *int64   `json:"seed,omitempty"`
}

// RunInfo describes one run (system) whose results are in results.jsonl.
type RunInfo struct {
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	Model       string         `json:"model,omitempty"`
	Atoms       string         `json:"atoms,omitempty"` // path of the atom table its retrieved ids refer to
	Params      map[string]any `json:"params,omitempty"`
}

// Result is one line of results.jsonl: what one run produced for one item.
// ItemID refers to an item of any format in the bundle (eval752 id, b-2
// query_id, v2 id, seed-003 qid).
type Result struct {
	Run       string      `json:"run"`
	ItemID    string      `json:"item_id"`
	Response  *string     `json:"response,omitempty"`  // the answer text (or chosen option text/letter)
	Responses []string    `json:"responses,omitempty"` // mcq_multi: the chosen options
	Retrieved []Retrieved `json:"retrieved,omitempty"` // ranked, best first (order is the rank)
	Refused   *bool       `json:"refused,omitempty"`   // the system's own abstention signal
	Verdict   string      `json:"verdict,omitempty"`   // judge_pairwise: "A", "B" or "tie"
	Passed    *bool       `json:"passed,omitempty"`    // code (or any type): an external checker's verdict
	LatencyMS *float64    `json:"latency_ms,omitempty"`
	Usage     *Usage      `json:"usage,omitempty"`
	CostUSD   *float64    `json:"cost_usd,omitempty"`
	Error     string      `json:"error,omitempty"` // the harness's error, if the item failed to run
}

// Retrieved is one retrieved atom / chunk. In JSON it is either a bare id
// string or {"id": "...", "score": 1.5}.
type Retrieved struct {
	ID    string   `json:"id"`
	Score *float64 `json:"score,omitempty"`
}

// Usage is token usage of one item.
type Usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// Atom is one row of a run's atom table (corpus/atoms.jsonl): the unit a
// retriever returns, with its extent in its source so gold regions can be
// resolved to it (spec §4). Only the fields of the source's modality are set.
type Atom struct {
	AtomID     string    `json:"atom_id"`
	SourceID   string    `json:"source_id"`
	Page       *int      `json:"page,omitempty"`
	Block      *int      `json:"block,omitempty"`
	BBox       []float64 `json:"bbox,omitempty"`
	TStart     *float64  `json:"t_start,omitempty"`
	TEnd       *float64  `json:"t_end,omitempty"`
	Path       string    `json:"path,omitempty"`
	LineStart  *int      `json:"line_start,omitempty"`
	LineEnd    *int      `json:"line_end,omitempty"`
	Symbols    []string  `json:"symbols,omitempty"`
	Turn       *int      `json:"turn,omitempty"`
	CharStart  *int      `json:"char_start,omitempty"`
	CharEnd    *int      `json:"char_end,omitempty"`
	ObservedAt string    `json:"observed_at,omitempty"` // RFC 3339; temporal correctness (seed 000 §2.4)
	Holder     string    `json:"holder,omitempty"`      // scope.holder that owns it (seed 000 §2.5)
	Text       string    `json:"text,omitempty"`
}

// UnmarshalJSON accepts both forms of a retrieved entry: a bare id string
// ("chunk-7") or an object {"id": "chunk-7", "score": 0.93}.
func (r *Retrieved) UnmarshalJSON(b []byte) error {
	var id string
	if err := json.Unmarshal(b, &id); err == nil {
		*r = Retrieved{ID: id}
		return nil
	}
	type plain Retrieved
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*r = Retrieved(p)
	return nil
}
