package engine

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/itemscore"
	"eval752/app/jsonl"
	"eval752/app/model"
	"eval752/app/report"
	"eval752/app/score"
)

var (
	ruleMetricsMismatch = finding.Register(finding.Rule{
		Code:        "rag.metrics-mismatch",
		Severity:    finding.Error,
		Description: "Every figure a run's metrics.json claims that eval752 knows reproduces: the value recomputed from the loaded questions, judgments and predictions (the run's \"all\" figure) equals the claim within the claim's rounding (half a unit of its last decimal).",
		Source:      "seed 003 §10 (runs/<run_id>/metrics.json; 只有配置、代码、数据集/判断集哈希和镜像均冻结，“同一实验”才具有可复现含义)",
		Hint:        "The run's figures were computed on other inputs or another way: recompute them from the frozen files, or load the files the run was scored on.",
		Family:      "rag",
	})
	ruleMetricsUnchecked = finding.Register(finding.Rule{
		Code:        "rag.metrics-unchecked",
		Severity:    finding.Info,
		Description: "A metrics.json figure that could not be recomputed is named: a metric name eval752 does not know, a figure that does not apply to the run's units, or a metrics.json in a folder no loaded run came from.",
		Source:      "seed 003 §10 (runs/<run_id>/metrics.json)",
		Hint:        "Use eval752's metric names (docs/formats.md: rag.metrics), on its scale (0–1 for rates), and load the run's predictions beside its metrics.json.",
		Family:      "rag",
	})
)

// metricKey is how a claimed name is matched to a figure label: case and
// the characters " _-." do not matter ("nDCG@10" = "ndcg@10",
// "CompleteHit@20" = "complete_hit@20", "latency_ms_p95" = "latency_ms p95").
func metricKey(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '_', '-', '.':
			return -1
		}
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// checkRunMetrics recomputes the figures of every runs/<id>/metrics.json
// and reports those that do not reproduce (rag.metrics-mismatch) and those
// that cannot be checked (rag.metrics-unchecked, one finding per file). It
// scores the inputs only when a metrics.json is loaded.
func checkRunMetrics(ds *dataset.Dataset, opt Options) finding.List {
	var files []dataset.Rec[model.RAGMetrics]
	for _, r := range ds.Metrics {
		if r.Typed {
			files = append(files, r)
		}
	}
	if len(files) == 0 {
		return nil
	}
	set, err := itemscore.Score(ds, opt.Items)
	if err != nil {
		return nil
	}
	var out finding.List
	for _, f := range files {
		dir := itemscore.DirOf(ds.Path(f.Loc))
		run := ""
		for _, rs := range set.Runs {
			if slices.Contains(rs.Dirs, dir) && (run == "" || strings.HasSuffix(run, ".retrieve")) {
				run = rs.Run
			}
		}
		claims, prefix := claimsOf(f.V)
		if run == "" {
			if len(claims) > 0 {
				out = append(out, ruleMetricsUnchecked.At(ds.Path(f.Loc), int(f.Line), "", "no loaded run came from %s: its %d figure(s) are not recomputed", dir, len(claims)))
			}
			continue
		}
		figs := runFigures(set, run, opt.Score)
		var unknown, na []string
		for _, name := range slices.Sorted(maps.Keys(claims)) {
			claim := claims[name]
			c, ok := figs[metricKey(name)]
			switch {
			case !ok:
				unknown = append(unknown, name)
				continue
			case c.Value == nil:
				na = append(na, name)
				continue
			}
			v, err := strconv.ParseFloat(claim, 64)
			if err != nil {
				unknown = append(unknown, name)
				continue
			}
			got := *c.Value
			if math.Abs(v-got) > tolerance(claim) {
				n := ""
				if c.N != nil && c.Denom != nil {
					n = fmt.Sprintf(", n=%d/%d", *c.N, *c.Denom)
				}
				out = append(out, ruleMetricsMismatch.At(ds.Path(f.Loc), int(f.Line), prefix+jsonl.Pointer(name),
					"run %s claims %s = %s; recomputed %s = %s (all units of its scope%s)", run, name, claim, c.Metric, c.FormatValue(), n))
			}
		}
		if len(unknown) > 0 || len(na) > 0 {
			var parts []string
			if len(unknown) > 0 {
				parts = append(parts, "not a figure eval752 computes: "+strings.Join(unknown, ", "))
			}
			if len(na) > 0 {
				parts = append(parts, "no figure for the run's units: "+strings.Join(na, ", "))
			}
			out = append(out, ruleMetricsUnchecked.At(ds.Path(f.Loc), int(f.Line), "", "%d figure(s) of run %s not recomputed — %s", len(unknown)+len(na), run, strings.Join(parts, "; ")))
		}
	}
	return out
}

// claimsOf returns the numeric entries of a metrics.json (name → number
// text), from its "metrics" object when it has one, with the pointer prefix
// of that object.
func claimsOf(m model.RAGMetrics) (map[string]string, string) {
	src, prefix := map[string]any(m), ""
	if inner, ok := m["metrics"].(map[string]any); ok {
		src, prefix = inner, "/metrics"
	}
	out := map[string]string{}
	for k, v := range src {
		switch x := v.(type) {
		case float64:
			out[k] = strconv.FormatFloat(x, 'g', -1, 64)
		case interface{ String() string }: // json.Number
			if _, err := strconv.ParseFloat(x.String(), 64); err == nil {
				out[k] = x.String()
			}
		}
	}
	return out, prefix
}

// tolerance is half a unit of the claim's last decimal ("0.85" → 0.005,
// "12" → 0.5), at least 1e-9: a figure reported to two decimals reproduces
// when the recomputed value rounds to it.
func tolerance(claim string) float64 {
	s := strings.ToLower(claim)
	if strings.ContainsAny(s, "e") {
		return 1e-9 * math.Max(1, math.Abs(mustFloat(s)))
	}
	d := 0
	if i := strings.IndexByte(s, '.'); i >= 0 {
		d = len(s) - i - 1
	}
	return math.Max(0.5*math.Pow10(-d), 1e-9)
}

func mustFloat(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

// runFigures is the run's figure per label (metricKey) over all units of
// its scope, as the score report's "all" tables give them.
func runFigures(set *itemscore.Set, run string, opt score.Options) map[string]report.Cell {
	opt.Runs = []string{run}
	opt.Strata = []string{}
	opt.Bootstrap = 100 // the values, not the intervals, are compared
	rep := score.Score(set, opt)
	out := map[string]report.Cell{}
	for _, s := range rep.Sections {
		for _, t := range s.Tables {
			if !strings.HasSuffix(t.ID, ".all") || len(t.Columns) < 2 {
				continue
			}
			for _, row := range t.Rows {
				if len(row) < 2 || row[0].Text == "" {
					continue
				}
				k := metricKey(row[0].Text)
				if _, dup := out[k]; !dup {
					out[k] = row[len(row)-1]
				}
			}
		}
	}
	return out
}
