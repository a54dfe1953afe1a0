package ui

import (
	"strings"
	"testing"

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
