package wire

import (
	"encoding/json"
	"fmt"

	"eval752/app/report"
)

// TypePiece is a part of an evaluation's result posted before the rest is
// computed (worker → page; same id as the Evaluate message). piece names it
// (engine.PieceValidated: overview and the first findings page in
// findings, a FindingPage for FindingQuery{Limit: FirstFindings};
// engine.PieceScored: the score, compare and many reports). Like the final
// Result it carries json (the result's header: inputs, counts, runs) and
// each report it completes as KIND (SplitReport's head),
// KIND+SectionsSuffix (a Uint8Array holding its parts' JSON one after the
// other; its buffer is transferred, not copied) and KIND+OffsetsSuffix
// (JSON: part i is bytes offsets[i]..offsets[i+1]). The final Result
// carries only the reports no piece carried. A Compare answer carries its
// report the same way in json, parts and offsets.
const TypePiece = "piece"

// FirstFindings is the limit of the findings page a PieceValidated carries
// (the page's first page of findings).
const FirstFindings = 300

// SectionsSuffix follows a report's kind in the name of the message field
// that holds its parts ("score_sections").
const SectionsSuffix = "_sections"

// OffsetsSuffix follows a report's kind in the name of the message field
// that holds its parts' offsets ("score_offsets").
const OffsetsSuffix = "_offsets"

// RowsPerPart is how many table rows one part of a split report holds at
// most: the page decodes one part per step, so a table of 10,000 rows
// (a comparison's disagreements) is never decoded in one task. 50 rows of
// a score table (≈ 250 cells) decode in a few ms natively, 10–30 ms in
// WebAssembly on the UI thread: with 200 a step of the page's pump ran
// past go-app's frame (33 ms), which then drew in the same task.
const RowsPerPart = 50

// part is one step of a split report: a new section (its tables follow),
// a new table of the last section (Chunks row parts follow), or rows of
// the last table.
type part struct {
	Section *report.Section `json:"s,omitempty"`
	Table   *report.Table   `json:"t,omitempty"`
	Chunks  int             `json:"n,omitempty"`
	Rows    [][]report.Cell `json:"r,omitempty"`
}

// SplitReport encodes r as its head (every field but Sections and Items)
// and a list of parts — each section without its tables, each table
// without its rows, and its rows RowsPerPart at a time — so the page can
// decode and draw a large report a little at a time instead of in one long
// task. A Joiner (or JoinReport) puts it back together.
func SplitReport(r *report.Report) (head string, parts []string, err error) {
	h := *r
	h.Sections, h.Items = nil, nil
	b, err := json.Marshal(&h)
	if err != nil {
		return "", nil, err
	}
	add := func(p part) error {
		b, err := json.Marshal(&p)
		if err == nil {
			parts = append(parts, string(b))
		}
		return err
	}
	for _, sec := range r.Sections {
		tables := sec.Tables
		sec.Tables = nil
		if err := add(part{Section: &sec}); err != nil {
			return "", nil, err
		}
		for _, t := range tables {
			rows := t.Rows
			t.Rows = nil
			chunks := (len(rows) + RowsPerPart - 1) / RowsPerPart
			if err := add(part{Table: &t, Chunks: chunks}); err != nil {
				return "", nil, err
			}
			for i := 0; i < len(rows); i += RowsPerPart {
				if err := add(part{Rows: rows[i:min(i+RowsPerPart, len(rows))]}); err != nil {
					return "", nil, err
				}
			}
		}
	}
	return string(b), parts, nil
}

// Joiner rebuilds a split report part by part. R holds the head and what
// is complete so far: a section appears with its first part, a table only
// once all its rows are in.
type Joiner struct {
	R *report.Report
	// Drop names a section to leave out (the page lists the files itself).
	Drop    string
	dropped bool
	table   *report.Table
	left    int
}

// NewJoiner decodes a SplitReport head.
func NewJoiner(head string) (*Joiner, error) {
	var r report.Report
	if err := json.Unmarshal([]byte(head), &r); err != nil {
		return nil, err
	}
	return &Joiner{R: &r}, nil
}

// Add decodes one part and returns how many cells it held (a measure of
// what drawing it costs).
func (j *Joiner) Add(s string) (int, error) {
	var p part
	if err := json.Unmarshal([]byte(s), &p); err != nil {
		return 0, fmt.Errorf("a part of the report: %w", err)
	}
	cells := 1
	switch {
	case p.Section != nil:
		if j.table != nil {
			return 0, fmt.Errorf("a section before the rows of table %q", j.table.ID)
		}
		j.dropped = j.Drop != "" && p.Section.ID == j.Drop
		if !j.dropped {
			j.R.Sections = append(j.R.Sections, *p.Section)
		}
	case p.Table != nil:
		if j.table != nil {
			return 0, fmt.Errorf("a table before the rows of table %q", j.table.ID)
		}
		j.table, j.left = p.Table, p.Chunks
	default:
		if j.table == nil || j.left == 0 {
			return 0, fmt.Errorf("rows without a table")
		}
		j.table.Rows = append(j.table.Rows, p.Rows...)
		j.left--
		for _, row := range p.Rows {
			cells += len(row)
		}
	}
	if j.table != nil && j.left == 0 {
		if !j.dropped {
			if len(j.R.Sections) == 0 {
				return 0, fmt.Errorf("table %q outside a section", j.table.ID)
			}
			sec := &j.R.Sections[len(j.R.Sections)-1]
			sec.Tables = append(sec.Tables, *j.table)
		}
		j.table = nil
	}
	return cells, nil
}

// Done reports whether no table is waiting for its rows.
func (j *Joiner) Done() bool { return j.table == nil }

// JoinReport decodes a split report whole (head and every part).
func JoinReport(head string, parts []string) (*report.Report, error) {
	j, err := NewJoiner(head)
	if err != nil {
		return nil, err
	}
	for _, s := range parts {
		if _, err := j.Add(s); err != nil {
			return nil, err
		}
	}
	if !j.Done() {
		return nil, fmt.Errorf("the report ends inside table %q", j.table.ID)
	}
	return j.R, nil
}
