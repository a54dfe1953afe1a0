// Package wire is the protocol between the page (app/ui, go-app, UI thread)
// and the core worker (wasm/worker, a second WASM in a Web Worker), plus the
// pure helpers both sides need: slimming a Result before it crosses the
// thread boundary, paging and filtering the item browser, reading a window of
// lines around a finding, locating a JSON pointer inside a line, and building
// export files.
//
// It imports neither go-app nor syscall/js, so it compiles into the small
// worker WASM and is tested natively.
//
// Messages are plain JS objects {type, id, json, ...}: the JSON payload is a
// string so both sides decode it with encoding/json; File and Blob objects
// travel beside it (structured clone, never copied into Go on the UI thread).
package wire

import (
	"eval752/app/finding"
	"eval752/app/report"
)

// Message types. Page → worker: Evaluate, Lines, Items, Export, Compare.
// Worker → page: Ready, Warm, Progress, Result, Error, Lines, Items, Export,
// Compare, Died. An Evaluate message may carry limit (a number: the memory estimate,
// bytes, above which the input is refused; workside.DefaultPageLimit when
// absent) and crash (true: the core dies at once — the page's test hook
// eval752Test.crashWorker, docs/ui.md).
const (
	TypeReady    = "ready"
	TypeEvaluate = "evaluate"
	TypeProgress = "progress"
	TypeResult   = "result"
	TypeError    = "error"
	TypeLines    = "lines"
	TypeItems    = "items"
	TypeExport   = "export"
	// TypeCompare asks for the paired comparison of two other runs
	// (CompareRequest); the answer's json is the comparison report.
	TypeCompare = "compare"
	// TypeDied is posted by static/worker.js (not by the Go core) when the
	// core stopped: its Go runtime exited (out of memory, a crash) or its
	// WebAssembly instance failed. message says why in plain words; no
	// answer will come for any request sent before it.
	TypeDied = "died"
	// TypeWarm is posted once by the core when its warm-up (every JSON
	// Schema compiled and a small sample evaluated while it waits for the
	// first file, wasm/worker) has stopped; json is {"millis": N, "done":
	// bool}: its wall time in the worker, and false when a message came
	// first and it stepped aside. The page needs nothing from it (its
	// timeline mark "eval752-warm" is what tests read).
	TypeWarm = "warm"
)

// LinesRequest asks for the lines around Line of Path (a top-level input name
// or "bundle.zip!entry").
type LinesRequest struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Context int    `json:"context"`
	// Pointer, when set, is the finding's JSON pointer: the window then
	// shows the part of a long line around the value it names.
	Pointer string `json:"pointer,omitempty"`
	// Column, when > 0, is the 1-based byte column the finding names
	// ("… line 2, column 115"): without a pointer value to show, the
	// window shows and marks that column.
	Column int `json:"column,omitempty"`
}

// LineWindow is the answer: lines First..First+len(Lines)-1 of Path.
type LineWindow struct {
	Path  string   `json:"path"`
	Line  int      `json:"line"`
	First int      `json:"first"`
	Lines []string `json:"lines"`
	// From is how many bytes of every line were dropped at its start, so
	// that the value of a long line is in view (0: lines start at col 1).
	From int `json:"from,omitempty"`
	// Hit is the [start, end) of the pointer's value in the target line's
	// text as sent (after From), located on the whole line; HitExact is
	// false when the pointer names an absent member and Hit is its parent.
	Hit      []int `json:"hit,omitempty"`
	HitExact bool  `json:"hit_exact,omitempty"`
	// HitColumn: Hit marks the finding's column (one character, or an
	// empty span at the end of the line), not a pointer's value.
	HitColumn bool   `json:"hit_column,omitempty"`
	Truncated []bool `json:"truncated,omitempty"` // line cut at its end (longer than shown)
	Err       string `json:"err,omitempty"`
}

// ItemQuery selects a page of the item browser.
type ItemQuery struct {
	Offset      int    `json:"offset"`
	Limit       int    `json:"limit"`
	Failures    bool   `json:"failures"`     // only items some run failed
	Differences bool   `json:"differences"`  // only items where run A and run B differ
	RunA        string `json:"run_a"`        // default: first run
	RunB        string `json:"run_b"`        // default: second run
	Search      string `json:"search"`       // substring of id or question
	ID          string `json:"id,omitempty"` // only the item with this id (an opened item)
	ErrorCode   string `json:"error_code"`   // only items some run has this seed 003 §9 code for
	// Sort orders the matching items (stably): "" as read, "id", "differ"
	// (items where run A and run B differ first), "metric:NAME" (by the
	// metric's value for run A, items without it last). Desc reverses it.
	Sort string `json:"sort,omitempty"`
	Desc bool   `json:"desc,omitempty"`
}

// ItemPage is one page of matching items.
type ItemPage struct {
	Total   int                 `json:"total"`   // items in the report
	Matches int                 `json:"matches"` // items matching the query
	Offset  int                 `json:"offset"`
	Items   []report.ItemDetail `json:"items"`
}

// ExportRequest names what to download.
type ExportRequest struct {
	// What: "score", "compare", "audit", "overview" (a report), "result" (the
	// whole evaluation as JSON) or "findings" (CSV or JSON).
	What   string `json:"what"`
	Format string `json:"format"` // "json", "md", "csv"
	// Filter, for "findings", keeps the findings the Findings view shows
	// (severity, code, path; offset and limit are ignored).
	Filter *FindingQuery `json:"filter,omitempty"`
}

// CompareRequest names the two runs to compare (B − A).
type CompareRequest struct {
	A string `json:"a"`
	B string `json:"b"`
}

// ResultMeta accompanies the slim result.
type ResultMeta struct {
	Items   int   `json:"items"`    // item details kept in the worker
	Millis  int64 `json:"millis"`   // worker time for the evaluation
	InBytes int64 `json:"in_bytes"` // bytes of the inputs
}

// Result is the page's view of engine.Result: the same JSON field names,
// decoded without importing the engine (which would link the whole core
// into the page's WASM). Fields the page does not show are left out.
type Result struct {
	Inputs   []InputInfo         `json:"inputs"`
	Findings finding.List        `json:"findings"`
	Counts   finding.Counts      `json:"counts"`
	PerCode  []finding.CodeCount `json:"per_code"`
	Overview *report.Report      `json:"overview,omitempty"`
	Score    *report.Report      `json:"score,omitempty"`
	Compare  *report.Report      `json:"compare,omitempty"`
	Many     *report.Report      `json:"many,omitempty"`
	Audit    *report.Report      `json:"audit,omitempty"`
	Runs     []string            `json:"runs,omitempty"`
}

// InputInfo mirrors dataset.InputInfo (same JSON names) so the page does not
// link the loader.
type InputInfo struct {
	Path   string `json:"path"`
	Format string `json:"format"`
	SHA256 string `json:"sha256"`
	Lines  int    `json:"lines"`
	Size   int64  `json:"size"`
}

// TypeFindings asks the worker for a page of findings.
const TypeFindings = "findings"

// FindingQuery selects a page of the findings list; empty filters match all.
type FindingQuery struct {
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Path     string `json:"path"`
	Offset   int    `json:"offset"`
	Limit    int    `json:"limit"`
	// Sort orders the matching findings (stably): "" severity first
	// (errors, warnings, infos; each in the order the validator reported
	// them), "rule", "where" (path, then line), "message", "order" (as
	// reported, `eval752 validate`'s order). Desc reverses it.
	Sort string `json:"sort,omitempty"`
	Desc bool   `json:"desc,omitempty"`
}

// FindingSorts are the values of FindingQuery.Sort.
var FindingSorts = []string{"", "rule", "where", "message", "order"}

// FindingPage is one page of matching findings, with the facets the
// filters offer (every code and path that has a finding).
type FindingPage struct {
	Total    int          `json:"total"`
	Matches  int          `json:"matches"`
	Offset   int          `json:"offset"`
	Findings finding.List `json:"findings"`
	Codes    []string     `json:"codes"`
	Paths    []string     `json:"paths"`
}

// Reports names the reports of a result, in the order the worker posts them
// (each as its own JSON string, decoded by the page only when shown).
var Reports = []string{"overview", "score", "compare", "many", "audit"}
