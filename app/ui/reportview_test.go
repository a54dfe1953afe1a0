package ui

import (
	"regexp"
	"strings"
	"testing"

	"eval752/app/report"
)

func TestChartSVGScalesPerMetric(t *testing.T) {
	yes := true
	tb := report.Table{ID: "t", Title: "T", Chart: true,
		Columns: []report.Column{{Key: "run", Label: "run"}, {Key: "acc", Label: "accuracy"}, {Key: "cost", Label: "cost"}},
		Rows: [][]report.Cell{{
			{Text: "r1"},
			{Metric: "acc", Value: report.F(0.5), CILow: report.F(0.4), CIHigh: report.F(0.6), Pass: &yes, Threshold: "≥ 0.4"},
			{Metric: "cost", Value: report.F(200)},
		}}}
	svg := chartSVG(tb)
	// Plot area: x from 270 to 690 (labelW 270, plotW 420).
	// acc 0.5 on the rate scale [0, 1]: width 0.5·420 = 210, a passing bar.
	// Its CI [0.4, 0.6] spans x = 270+0.4·420 = 438 to 270+0.6·420 = 522.
	// cost 200 on its own scale [0, 200]: width 420.
	for _, want := range []string{
		`<rect class="bar bar-pass" x="270.0" y="24.0" width="210.0"`,
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
	if got := chartSVG(report.Table{}); got != "<div></div>" {
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
	for what, html := range map[string]string{"table": tableHTML("score", tb, tb.Rows), "chart": chartSVG(tb)} {
		if !strings.Contains(html, `evil\x1b[2J\r\nrow`) {
			t.Errorf("%s: the run name is not shown escaped:\n%s", what, html)
		}
		shown := regexp.MustCompile(` data-[a-z]+="[^"]*"`).ReplaceAllString(html, "")
		if strings.ContainsAny(shown, "\x1b\r\x07") {
			t.Errorf("%s shows a raw control character (outside the data-* hooks):\n%q", what, shown)
		}
	}
}
