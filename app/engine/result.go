// Package engine is the one entry point the CLI and the page share: load the
// inputs, validate them, score the runs, audit the set design, and return one
// Result. The page's Web Worker and `eval752 results` call Evaluate; every
// other command that reads inputs is one call too — Validate (`validate`),
// Score, Compare, CompareMany (`score`, `compare`, `compare --baseline`),
// Audit (`audit`, `audit --draft`) — and app/cli only parses flags and
// prints what they return, so the page and the command line agree by
// construction. Plain TREC inputs are streamed by all of them (Validate).
package engine

import (
	"fmt"

	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/itemscore"
	"eval752/app/report"
	"eval752/app/score"
)

// Result is everything one evaluation produced.
type Result struct {
	Inputs   []dataset.InputInfo `json:"inputs"`
	Findings finding.List        `json:"findings"`
	Counts   finding.Counts      `json:"counts"`
	PerCode  []finding.CodeCount `json:"per_code"`
	// Overview tables: counts per format, split, modality, type, category.
	Overview *report.Report `json:"overview,omitempty"`
	// Score is nil when nothing in the inputs can be scored (no results,
	// predictions or TREC run).
	Score *report.Report `json:"score,omitempty"`
	// Compare is the paired comparison of the first two runs (or the two
	// named in Options), nil with fewer than two runs.
	Compare *report.Report `json:"compare,omitempty"`
	// Many compares every other run with the first (the baseline), paired,
	// with Holm–Bonferroni adjusted p-values — `eval752 compare --baseline
	// FIRST PATH...` — nil with fewer than three runs (two are Compare).
	Many *report.Report `json:"many,omitempty"`
	// Audit is the set-design audit (seed 002), nil when there is nothing to audit.
	Audit *report.Report `json:"audit,omitempty"`
	// AuditFindings are what `eval752 audit` lists: Findings plus the
	// audit's own (refusal audit, leakage), which validation does not
	// count.
	AuditFindings finding.List `json:"audit_findings,omitempty"`
	// Runs lists the run names found, in report order.
	Runs []string `json:"runs,omitempty"`
	// Name is the dataset's name for file names of exports: the first
	// bundle's meta.json name, else the first input's base name without
	// its extensions (DatasetName). Not part of the JSON.
	Name string `json:"-"`
	// Annotations are the items of a set without runs (score.UnitDetails),
	// so the page can browse an annotation-only set. Not part of the JSON.
	Annotations []report.ItemDetail `json:"-"`

	// set and opt are what scoring ran on, kept for Recompare; compared
	// names the runs of Compare (A, B).
	set      *itemscore.Set
	opt      Options
	compared [2]string
}

// ComparedRuns returns the runs of r.Compare, A then B; ok is false when r
// has no comparison.
func (r *Result) ComparedRuns() (a, b string, ok bool) {
	if r.Compare == nil {
		return "", "", false
	}
	return r.compared[0], r.compared[1], true
}

// Recompare replaces r.Compare with the paired comparison of runs a (A) and
// b (B), on the same scored items and options as the first. It is what the
// page runs when the reviewer picks two other runs.
func (r *Result) Recompare(a, b string) error {
	if r.set == nil {
		return fmt.Errorf("nothing was scored")
	}
	cmp, err := score.Compare(r.set, a, b, r.opt.Score)
	if err != nil {
		return err
	}
	cmp.Inputs = r.Inputs
	r.Compare, r.compared = cmp, [2]string{a, b}
	return nil
}
