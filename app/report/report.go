// Package report is the one result model every eval752 command produces and
// every front end shows: the CLI renders it to text, JSON, Markdown or CSV,
// and the page renders the same struct to HTML tables and SVG charts. Nothing
// here computes a metric; producers (score, compare, audit) fill it in.
package report

import (
	"bytes"
	"encoding/json"

	"eval752/app/inputinfo"
)

// Report is a titled document made of sections of tables.
type Report struct {
	Kind     string                `json:"kind"` // "score", "compare", "audit"
	Title    string                `json:"title"`
	Tool     Tool                  `json:"tool"`
	Config   []KV                  `json:"config"` // the full configuration used, in a stable order
	Inputs   []inputinfo.InputInfo `json:"inputs"` // every file read, with sha256 (seed 000 §5)
	Sections []Section             `json:"sections"`
	// Items holds per-item details for the page's item browser (and --json);
	// text / Markdown / CSV renderers leave them out.
	Items []ItemDetail `json:"items,omitempty"`
}

// Tool names the producing program, so a number can be traced to a build.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// KV is one configuration entry.
type KV struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Section groups tables under a heading.
type Section struct {
	ID     string   `json:"id"`
	Title  string   `json:"title"`
	Text   []string `json:"text,omitempty"` // paragraphs shown before the tables
	Tables []Table  `json:"tables,omitempty"`
	Notes  []string `json:"notes,omitempty"` // caveats shown after the tables (flags, missing items, …)
}

// Table is a grid of cells. A table whose Chart is set is also drawn as a bar
// chart with error bars by the page (one bar per metric cell).
type Table struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Columns []Column `json:"columns"`
	Rows    [][]Cell `json:"rows"`
	Notes   []string `json:"notes,omitempty"`
	Chart   bool     `json:"chart,omitempty"`
}

// MarshalJSON writes a table without rows with "rows": [] (not null), so
// a consumer can always iterate them.
func (t Table) MarshalJSON() ([]byte, error) {
	type plain Table
	if t.Rows == nil {
		t.Rows = [][]Cell{}
	}
	if t.Columns == nil {
		t.Columns = []Column{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // as the reports' own encoders: "n<10", not "n\u003c10"
	if err := enc.Encode(plain(t)); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Column is a table header.
type Column struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	Help  string `json:"help,omitempty"` // from the metric / rule registry
}

// Cell is either text or a figure. A figure carries what the seeds require
// beside every number: n and the denominator, the confidence interval, the
// threshold and whether it passes, and any flag (e.g. "unjudged").
type Cell struct {
	Text string `json:"text,omitempty"`

	Metric  string   `json:"metric,omitempty"`  // registry name, e.g. "ndcg@10"
	Stratum string   `json:"stratum,omitempty"` // e.g. "all", "split=test", "modality=pdf"
	Run     string   `json:"run,omitempty"`
	Value   *float64 `json:"value,omitempty"`
	N       *int     `json:"n,omitempty"`     // items that contributed a value
	Denom   *int     `json:"denom,omitempty"` // annotated items of the stratum
	CILow   *float64 `json:"ci_low,omitempty"`
	CIHigh  *float64 `json:"ci_high,omitempty"`
	// Threshold is a human-readable target ("≥ 0.90"); Pass is nil when the
	// figure has no threshold.
	Threshold string `json:"threshold,omitempty"`
	Pass      *bool  `json:"pass,omitempty"`
	Flag      string `json:"flag,omitempty"`
	// Digits is how many decimals text renderers print (default 4); Int
	// prints the value as an integer.
	Digits int  `json:"digits,omitempty"`
	Int    bool `json:"int,omitempty"`
}

// ItemDetail is one item as the item browser shows it: per run, the gold vs
// the retrieved list with relevance marks, and the answer vs the reference.
type ItemDetail struct {
	ID        string            `json:"id"`
	Path      string            `json:"path"`
	Line      int               `json:"line"`
	Format    string            `json:"format"`
	Question  string            `json:"question"`
	Reference string            `json:"reference,omitempty"`
	Strata    map[string]string `json:"strata,omitempty"`
	Gold      []GoldDetail      `json:"gold,omitempty"`
	// Choices are a multiple-choice item's options, the gold one(s)
	// marked.
	Choices []Choice  `json:"choices,omitempty"`
	Runs    []RunItem `json:"runs,omitempty"`
	// Off is the byte offset of Line's start in Path (0: unknown unless
	// Line is 1), so the item browser reads the record from there without
	// scanning the file. Not part of any output.
	Off int64 `json:"-"`
}

// Choice is one option of a multiple-choice item.
type Choice struct {
	Text   string `json:"text"`
	Answer bool   `json:"answer,omitempty"` // the gold answer (or one of them)
}

// GoldDetail is one gold entry and the atoms it resolved to.
type GoldDetail struct {
	Label string   `json:"label"` // "doc p.5", "video 12.0–18.5 s"
	Atoms []string `json:"atoms"`
	Note  string   `json:"note,omitempty"` // "no atom", "crosses atom boundary", …
	// Judgment is set for a graded anchored judgment (seed 003 §4.3) rather
	// than a gold entry: its grade 0–3.
	Judgment *int `json:"judgment,omitempty"`
}

// RunItem is what one run did on an item.
type RunItem struct {
	Run       string          `json:"run"`
	Response  string          `json:"response,omitempty"`
	Correct   *bool           `json:"correct,omitempty"`
	Missing   bool            `json:"missing,omitempty"`
	Retrieved []RetrievedMark `json:"retrieved,omitempty"`
	Scores    Values          `json:"scores,omitempty"` // per-item metric values
	// Flags are what the scorer noticed on this item (duplicate-retrieved,
	// unknown-id, ambiguous-gold, unresolved-judgment, scores-ignored,
	// duplicate-result); docs/metrics.md says what each means.
	Flags []string `json:"flags,omitempty"`
	// Errors are the seed 003 §9 error codes of this item: derived by
	// eval752 (docs/metrics.md) and read from the run's errors.jsonl.
	Errors []string `json:"errors,omitempty"`
}

// RetrievedMark is one retrieved atom with its relevance mark.
type RetrievedMark struct {
	Rank  int    `json:"rank"`
	ID    string `json:"id"`
	Grade *int   `json:"grade,omitempty"` // nil = unjudged
	Gold  bool   `json:"gold,omitempty"`
	Flag  string `json:"flag,omitempty"` // "future", "other-holder", …
}

// F returns a pointer to v (for optional numbers).
func F(v float64) *float64 { return &v }

// I returns a pointer to v.
func I(v int) *int { return &v }

// B returns a pointer to v.
func B(v bool) *bool { return &v }
