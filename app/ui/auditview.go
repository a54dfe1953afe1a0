package ui

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"eval752/app/model"
	"eval752/app/report"
)

// What the audit could not check for want of an input: a rule whose check
// reads corpus text (documents, chunks, pages, clauses) or the clause index
// finds nothing when that input is absent, and "0 findings" would read as
// "passed". uncheckedRules names them with what to load.
const (
	needCorpus = "not checked — load a corpus (documents.jsonl / chunks.jsonl) to check this"
	needText   = "not checked — load a corpus or a clause index to check this"
	needClause = "not checked — load a clause index to check this"
)

// uncheckedRules maps each audit rule the inputs could not exercise to the
// sentence that says so ("" inputs: nil).
func uncheckedRules(formats map[model.Format]bool) map[string]string {
	corpus := formats[model.FormatRAGDocument] || formats[model.FormatRAGChunk] || formats[model.FormatRAGPage]
	clause := formats[model.FormatClause]
	out := map[string]string{}
	if !corpus {
		for _, c := range []string{"audit.leak-doc-exact", "audit.leak-doc-near", "audit.leak-chunk-exact", "audit.leak-chunk-near",
			"audit.leak-answer-in-corpus", "audit.leak-gold-in-corpus"} {
			out[c] = needCorpus
		}
	}
	if !corpus && !clause {
		out["audit.refusal-similar"] = needText
	}
	if formats[model.FormatV2Question] && !clause {
		for _, c := range []string{"v2.answer-not-verbatim", "v2.clause-ambiguous", "v2.provenance-missing", "v2.ngram-coverage", "v2.doc-concentration"} {
			out[c] = needClause
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// auditBanner is what a section of the audit says when the inputs could
// not exercise it ("" when they could).
func auditBanner(section string, unchecked map[string]string) string {
	switch section {
	case "leakage":
		if unchecked["audit.leak-doc-exact"] != "" {
			return "Document, chunk and answer-in-corpus leakage: " + needCorpus + ". Question copies across splits are checked."
		}
	case "refusal":
		if unchecked["audit.refusal-similar"] != "" {
			return "Refusal similarity: " + needText + "."
		}
	}
	return ""
}

// refusalPlot draws the refusal-distribution table (group, n, median, p5,
// p90, max of the top-1 similarity) as one box-plot row per group on [0, 1]:
// a bar from the 5th to the 90th percentile, a tick at the median, a
// whisker to the maximum, and the threshold as a dashed line, so the
// overlap of answerable and refuse questions shows at a glance.
func refusalPlot(t report.Table, threshold float64, hasThreshold bool) string {
	col := map[string]int{}
	for j, c := range t.Columns {
		col[c.Key] = j
	}
	get := func(row []report.Cell, k string) (float64, bool) {
		j, ok := col[k]
		if !ok || j >= len(row) || row[j].Value == nil || math.IsNaN(*row[j].Value) {
			return 0, false
		}
		return *row[j].Value, true
	}
	const labelW, plotW, rowH, top = 200.0, 460.0, 34.0, 20.0
	width := labelW + plotW + 30
	height := top + rowH*float64(len(t.Rows)) + 26
	x := func(v float64) float64 { return labelW + math.Max(0, math.Min(1, v))*plotW }
	var s strings.Builder
	fmt.Fprintf(&s, `<svg class="chart boxplot" data-test="refusal-plot" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %.0f %.0f" role="img" aria-label="%s">`,
		width, height, html.EscapeString("box plot: top-1 similarity by answerability, with the threshold"))
	fmt.Fprintf(&s, `<text class="panel" x="%.0f" y="12">top-1 similarity (bar: 5th–90th percentile, tick: median, whisker: max)</text>`, labelW)
	for i, row := range t.Rows {
		y := top + rowH*float64(i)
		name := ""
		if len(row) > 0 {
			name = row[0].Text
		}
		n, _ := get(row, "n")
		fmt.Fprintf(&s, `<text class="label" x="%.0f" y="%.1f" text-anchor="end">%s (n=%s)</text>`, labelW-8, y+rowH*0.6, html.EscapeString(name), strconv.FormatFloat(n, 'f', 0, 64))
		p5, ok1 := get(row, "p5")
		p90, ok2 := get(row, "p90")
		med, ok3 := get(row, "median")
		mx, ok4 := get(row, "max")
		if !(ok1 && ok2 && ok3) {
			continue
		}
		cls := "bar run-" + strconv.Itoa(i%6)
		fmt.Fprintf(&s, `<g><title>%s: p5 %.3f, median %.3f, p90 %.3f, max %.3f</title>`, html.EscapeString(name), p5, med, p90, mx)
		if ok4 {
			fmt.Fprintf(&s, `<line class="err" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, x(p90), y+rowH/2, x(mx), y+rowH/2)
			fmt.Fprintf(&s, `<line class="err" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, x(mx), y+rowH/2-6, x(mx), y+rowH/2+6)
		}
		fmt.Fprintf(&s, `<rect class="%s" x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="2"/>`, cls, x(p5), y+8, math.Max(x(p90)-x(p5), 1), rowH-16)
		fmt.Fprintf(&s, `<line class="median" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/></g>`, x(med), y+5, x(med), y+rowH-5)
	}
	bottom := top + rowH*float64(len(t.Rows))
	for _, tk := range niceTicks(0, 1) {
		fmt.Fprintf(&s, `<line class="grid-line" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/><text class="axis" x="%.1f" y="%.1f" text-anchor="middle">%s</text>`,
			x(tk.v), top, x(tk.v), bottom, x(tk.v), bottom+13, tk.label)
	}
	if hasThreshold {
		fmt.Fprintf(&s, `<line class="target" data-test="refusal-threshold" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/><text class="axis" x="%.1f" y="%.1f">threshold %s</text>`,
			x(threshold), top-4, x(threshold), bottom+2, x(threshold)+4, bottom+24, strconv.FormatFloat(threshold, 'g', -1, 64))
	}
	s.WriteString(`</svg>`)
	return s.String()
}
