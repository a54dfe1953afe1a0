package ui

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"eval752/app/model"
	"eval752/app/report"
	"eval752/app/ui/wire"
)

func TestChartSVGScalesPerMetric(t *testing.T) {
	yes := true
	tb := report.Table{ID: "t", Title: "T", Chart: true,
		Columns: []report.Column{{Key: "run", Label: "run"}, {Key: "acc", Label: "accuracy"}, {Key: "cost", Label: "cost"}},
		Rows: [][]report.Cell{{
			{Text: "r1"},
			{Metric: "acc", Run: "r1", Value: report.F(0.5), CILow: report.F(0.4), CIHigh: report.F(0.6), Pass: &yes, Threshold: "≥ 0.4"},
			{Metric: "cost", Run: "r1", Value: report.F(200)},
		}}}
	svg := chartSVG(tb, false)
	// Plot area: x from 270 to 690 (labelW 270, plotW 420).
	// acc 0.5 on the rate scale [0, 1]: width 0.5·420 = 210, coloured as
	// the table's first run, passing: a ✓ beside the value.
	// Its CI [0.4, 0.6] spans x = 270+0.4·420 = 438 to 270+0.6·420 = 522;
	// the target 0.4 is a line at x = 438.
	// cost 200 on its own scale [0, 200]: width 420.
	for _, want := range []string{
		`<rect class="bar run-0" x="270.0" y="24.0" width="210.0"`,
		`<line class="target" x1="438.0"`,
		`0.5000<tspan class="mark-pass"> ✓</tspan>`,
		`<line class="err" x1="438.0" y1="31.0" x2="522.0" y2="31.0"/>`,
		`width="420.0"`,
		`>acc</text>`, `>cost</text>`,
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("chart lacks %s:\n%s", want, svg)
		}
	}
	if strings.Contains(svg, "style=") {
		t.Error("chart uses an inline style (refused by the CSP)")
	}
	if got := chartSVG(report.Table{}, false); got != "<div></div>" {
		t.Errorf("empty table chart = %q", got)
	}
}

func TestFullValue(t *testing.T) {
	for _, tc := range []struct {
		v    *float64
		want string
	}{
		{nil, ""},
		{report.F(0.1), "0.1"},
		{report.F(1.0 / 3), "0.3333333333333333"},
		{report.F(0.34222222222222226), "0.34222222222222226"},
		{report.F(12), "12"},
	} {
		if got := FullValue(tc.v); got != tc.want {
			t.Errorf("FullValue = %q, want %q", got, tc.want)
		}
	}
}

// TestNiceTicks: round steps and labels without exponents.
func TestNiceTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   string
	}{
		{0, 1, "0.0 0.2 0.4 0.6 0.8 1.0"},
		{0, 2894, "0 500 1000 1500 2000 2500"},
		{-0.2, 0.6, "-0.2 0.0 0.2 0.4 0.6"},
		{0, 0.03, "0.000 0.005 0.010 0.015 0.020 0.025 0.030"},
	} {
		var got []string
		for _, k := range niceTicks(tc.lo, tc.hi) {
			got = append(got, k.label)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("niceTicks(%v, %v) = %v, want %s", tc.lo, tc.hi, got, tc.want)
		}
	}
}

// The page shows control characters of a run name or label escaped, as the
// CLI's text output does (go-app and html.EscapeString escape markup, not
// ESC or line breaks); the data-run hook keeps the exact name.
func TestReportHTMLInert(t *testing.T) {
	run := "evil\x1b[2J\r\nrow"
	tb := report.Table{ID: "t", Title: "T", Chart: true,
		Columns: []report.Column{{Key: "run", Label: "run\x07"}, {Key: "acc", Label: "accuracy"}},
		Rows:    [][]report.Cell{{{Text: run}, {Metric: "acc", Run: run, Value: report.F(0.5)}}}}
	for what, html := range map[string]string{"table": tableHTML("score", tb, tb.Rows, nil), "chart": chartSVG(tb, false)} {
		if !strings.Contains(html, `evil\x1b[2J\r\nrow`) {
			t.Errorf("%s: the run name is not shown escaped:\n%s", what, html)
		}
		shown := regexp.MustCompile(` data-[a-z]+="[^"]*"`).ReplaceAllString(html, "")
		if strings.ContainsAny(shown, "\x1b\r\x07") {
			t.Errorf("%s shows a raw control character (outside the data-* hooks):\n%q", what, shown)
		}
	}
}

// TestStatusWords: the status in words, the phase as "step k of 4".
func TestStatusWords(t *testing.T) {
	p := &Page{res: &wire.Result{}}
	p.res.Counts.Error, p.res.Counts.Warning = 1, 0
	if got := p.statusLabel(StatusReady); got != "ready — 1 error, 0 warnings" {
		t.Errorf("ready label %q", got)
	}
	for stage, want := range map[string]string{"read": "step 1 of 4: reading the files", "validate": "step 2 of 4: validating",
		"score": "step 3 of 4: scoring", "audit": "step 4 of 4: auditing", "": "step 1 of 4: reading the files"} {
		if got := stageLabel(stage); got != want {
			t.Errorf("stage %q: %q, want %q", stage, got, want)
		}
	}
}

// TestUnchecked: without a corpus the leakage rules that read documents or
// chunks and the refusal similarity are "not checked"; with a clause index
// only the corpus-only ones; v2's clause rules only when v2 questions are
// loaded without a clause index.
func TestUnchecked(t *testing.T) {
	none := uncheckedRules(map[model.Format]bool{model.FormatItem: true})
	if none["audit.leak-doc-exact"] != needCorpus || none["audit.refusal-similar"] != needText || none["v2.provenance-missing"] != "" {
		t.Errorf("no corpus: %v", none)
	}
	clause := uncheckedRules(map[model.Format]bool{model.FormatV2Question: true, model.FormatClause: true})
	if clause["audit.refusal-similar"] != "" || clause["audit.leak-chunk-near"] != needCorpus || clause["v2.provenance-missing"] != "" {
		t.Errorf("clause index: %v", clause)
	}
	if v2 := uncheckedRules(map[model.Format]bool{model.FormatV2Question: true, model.FormatRAGChunk: true}); v2["v2.provenance-missing"] != needClause || v2["audit.leak-chunk-near"] != "" {
		t.Errorf("v2 without clause index: %v", v2)
	}
	if all := uncheckedRules(map[model.Format]bool{model.FormatRAGChunk: true, model.FormatClause: true}); all != nil {
		t.Errorf("everything loaded: %v", all)
	}
}

// TestRefusalPlot: the box plot places the threshold and each group's
// median on the [0, 1] scale (x = 200 + v·460).
func TestRefusalPlot(t *testing.T) {
	tb := report.Table{ID: "refusal-distribution", Columns: []report.Column{{Key: "group"}, {Key: "n"}, {Key: "median"}, {Key: "p5"}, {Key: "p90"}, {Key: "max"}},
		Rows: [][]report.Cell{{{Text: "answerable"}, {Value: report.F(86)}, {Value: report.F(0.5)}, {Value: report.F(0.1)}, {Value: report.F(0.6)}, {Value: report.F(0.7)}}}}
	svg := refusalPlot(tb, 0.25, true)
	for _, want := range []string{`<line class="median" x1="430.0"`, `x1="315.0" y1="16.0" x2="315.0"`, `>answerable (n=86)<`, `threshold 0.25`} {
		if !strings.Contains(svg, want) {
			t.Errorf("plot lacks %s:\n%s", want, svg)
		}
	}
}

// svgf writes what fmt.Fprintf writes, for the formats chartSVG uses and
// for values that print differently (negative zero, NaN, infinities,
// rounding halves, large and tiny numbers).
func TestSvgfMatchesFmt(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 0.05, 0.15, 0.25, 1.45, -3.25, 123456789.987, 1e-9, 1e21, math.NaN(), math.Inf(1), math.Inf(-1)}
	formats := []string{`x="%.1f" y="%.1f"`, `viewBox="0 0 %.0f %.0f"`, `%.3f|%.9f`}
	for _, f := range formats {
		for _, a := range vals {
			for _, b := range vals {
				args := []any{a, b}
				var got strings.Builder
				svgf(&got, f, args...)
				if want := fmt.Sprintf(f, args...); got.String() != want {
					t.Errorf("svgf(%q, %v, %v) = %q, fmt: %q", f, a, b, got.String(), want)
				}
			}
		}
	}
	for _, c := range []struct {
		f    string
		args []any
	}{
		{`<title>%s</title>`, []any{"a &amp; b"}},
		{`<rect class="%s" x="%.1f"/>%d%%`, []any{"bar run-1", 2.25, 42}},
		{`%s%s`, []any{"", "✓"}},
		{`%v and %q`, []any{1.5, "q"}}, // verbs svgf leaves to fmt
		{`%.1f`, []any{"not a number"}},
	} {
		var got strings.Builder
		svgf(&got, c.f, c.args...)
		if want := fmt.Sprintf(c.f, c.args...); got.String() != want {
			t.Errorf("svgf(%q, %v) = %q, fmt: %q", c.f, c.args, got.String(), want)
		}
	}
}

// A chart draws at most maxBars bars, and chartBars (what it counts in a
// render's budget) is that number.
func TestChartBarsBudget(t *testing.T) {
	if maxBars*chartBarCells > drawCells {
		t.Errorf("the largest chart counts %d cells, more than a render's %d", maxBars*chartBarCells, drawCells)
	}
	for _, n := range []int{0, 1, 79, 80, 81, 500} {
		tb := report.Table{ID: "t", Chart: true, Columns: []report.Column{{Key: "s", Label: "stratum"}, {Key: "run:a", Label: "a"}, {Key: "run:b", Label: "b"}}}
		for i := range n {
			v := float64(i) / float64(n+1)
			tb.Rows = append(tb.Rows, []report.Cell{{Text: fmt.Sprint("s", i)},
				{Metric: "m", Run: "a", Stratum: fmt.Sprint("s=", i), Value: &v},
				{Metric: "m", Run: "b", Stratum: fmt.Sprint("s=", i)}}) // no value: no bar
		}
		svg := chartSVG(tb, false)
		bars := strings.Count(svg, `<rect class="bar`)
		if want := min(n, maxBars); bars != want || chartBars(tb) != want {
			t.Errorf("%d figures: %d bars drawn, chartBars %d; want %d", n, bars, chartBars(tb), want)
		}
		if chartCells(tb) != chartBars(tb)*chartBarCells {
			t.Errorf("chartCells %d", chartCells(tb))
		}
	}
}
