package score

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"eval752/app/itemscore"
	"eval752/app/peer"
	"eval752/app/report"
)

// headlineSection is the "reported vs recomputed" table: every headline
// number a peer tool's log reports beside the value eval752 recomputes from
// the log's own samples, and whether they agree within peer.Tolerance
// (counts exactly).
func headlineSection(hs []itemscore.Headline) report.Section {
	t := report.Table{ID: "headline-check", Title: "Reported vs recomputed",
		Columns: []report.Column{
			{Key: "file", Label: "file"}, {Key: "tool", Label: "tool"}, {Key: "task", Label: "task"}, {Key: "run", Label: "run"},
			{Key: "scorer", Label: "scorer"}, {Key: "metric", Label: "metric"},
			{Key: "reported", Label: "reported"}, {Key: "recomputed", Label: "recomputed"}, {Key: "n", Label: "n"}, {Key: "check", Label: "check"},
		}}
	mism := 0
	var notes []string
	for _, h := range hs {
		if h.Status != "" {
			n := fmt.Sprintf("%s: the log's status is %q — its reported numbers cover only the samples it completed, as do the recomputed ones", fileOf(h.Path), h.Status)
			if !slices.Contains(notes, n) {
				notes = append(notes, n)
			}
		}
		rec, check := "", "not recomputed: "+h.Note
		if h.Recomputed != nil {
			rec = num(*h.Recomputed)
			check = "ok"
			if h.Mismatch {
				check = "MISMATCH"
				mism++
			}
		}
		where := h.Path
		if h.Line > 0 {
			where += ":" + strconv.Itoa(h.Line)
		}
		if h.Pointer != "" {
			where += " " + h.Pointer
		}
		scorer := h.Scorer
		if h.Reducer != "" && h.Reducer != "mean" {
			scorer += " (" + h.Reducer + ")" // Inspect: one scorer reported once per epoch reducer
		}
		t.Rows = append(t.Rows, []report.Cell{{Text: where}, {Text: h.Tool}, {Text: h.Task}, {Text: h.Run}, {Text: scorer}, {Text: h.Metric},
			{Text: num(h.Value)}, {Text: rec}, {Value: report.F(float64(h.N)), Int: true}, {Text: check}})
	}
	sec := report.Section{ID: "headline-check", Title: "Reported vs recomputed (logs of other tools)",
		Text:   []string{fmt.Sprintf("Every headline number the logs report, recomputed from the logs' own samples: means of the per-sample values (epochs reduced first, as the tool does), stderr = sample standard deviation (n − 1) / √n, promptfoo counts and score sums over its rows. Agreement within |a − b| ≤ %g · max(1, |a|, |b|); counts exactly. A difference is a peer.headline-mismatch error.", peer.Tolerance)},
		Tables: []report.Table{t}}
	sec.Notes = append(sec.Notes, notes...)
	if mism > 0 {
		sec.Notes = append(sec.Notes, fmt.Sprintf("%d reported number(s) do not follow from the log's samples (peer.headline-mismatch)", mism))
	}
	return sec
}

// num prints a number with the shortest text that reads back to it.
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// fileOf is the file of a reported value's path (the archive of an entry).
func fileOf(p string) string {
	if i := strings.IndexByte(p, '!'); i >= 0 {
		return p[:i]
	}
	return p
}
