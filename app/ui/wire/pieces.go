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
// each report it completes as KIND (SplitReport's head) and
// KIND+SectionsSuffix (an array of its sections' JSON). The final Result
// carries only the reports no piece carried.
const TypePiece = "piece"

// FirstFindings is the limit of the findings page a PieceValidated carries
// (the page's first page of findings).
const FirstFindings = 300

// SectionsSuffix follows a report's kind in the name of the message field
// that holds its sections ("score_sections").
const SectionsSuffix = "_sections"

// SplitReport encodes r as its head (every field but Sections and Items)
// and one JSON string per section, so the page can decode and draw a large
// report a section at a time instead of in one long task. JoinReport
// undoes it.
func SplitReport(r *report.Report) (head string, sections []string, err error) {
	h := *r
	h.Sections, h.Items = nil, nil
	b, err := json.Marshal(&h)
	if err != nil {
		return "", nil, err
	}
	sections = make([]string, len(r.Sections))
	for i := range r.Sections {
		s, err := json.Marshal(&r.Sections[i])
		if err != nil {
			return "", nil, err
		}
		sections[i] = string(s)
	}
	return string(b), sections, nil
}

// DecodeHead decodes a SplitReport head, or a whole report (the sections it
// holds are kept: a report that crossed in one piece).
func DecodeHead(head string) (*report.Report, error) {
	var r report.Report
	if err := json.Unmarshal([]byte(head), &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// DecodeSection decodes one section string of SplitReport.
func DecodeSection(s string) (report.Section, error) {
	var sec report.Section
	if err := json.Unmarshal([]byte(s), &sec); err != nil {
		return sec, fmt.Errorf("a section: %w", err)
	}
	return sec, nil
}

// JoinReport decodes a split report whole (head and every section).
func JoinReport(head string, sections []string) (*report.Report, error) {
	r, err := DecodeHead(head)
	if err != nil {
		return nil, err
	}
	for _, s := range sections {
		sec, err := DecodeSection(s)
		if err != nil {
			return nil, err
		}
		r.Sections = append(r.Sections, sec)
	}
	return r, nil
}
