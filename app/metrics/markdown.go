package metrics

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// MarkdownTable renders the registry as a Markdown table, one row per family
// (the README's and docs/metrics.md's metric table are this text).
func MarkdownTable() string {
	var b strings.Builder
	b.WriteString("| metric | group | what it measures | formula | target | source |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	for _, f := range families {
		name := "`" + f.Name + "`"
		switch f.Cutoff {
		case RequiresCutoff:
			name = "`" + f.Name + "@k`"
		case OptionalCutoff:
			name = "`" + f.Name + "`, `" + f.Name + "@k`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", name, f.Group, cell(f.Help), cell(f.Formula), cell(targets(f)), cell(f.Source))
	}
	return b.String()
}

// targets lists a family's thresholds: "@10 ≥ 0.90; @20 ≥ 0.85", then its
// rerank targets: "rerank @10 ≥ 0.70".
func targets(f *Family) string {
	var parts []string
	for _, set := range []struct {
		prefix string
		ts     map[int]Threshold
	}{{"", f.Thresholds}, {"rerank ", f.RerankThresholds}} {
		for _, k := range slices.Sorted(maps.Keys(set.ts)) {
			t := set.ts[k]
			op := "≥"
			if t.Op == "<=" {
				op = "≤"
			}
			s := op + " " + strconv.FormatFloat(t.Value, 'f', 2, 64)
			if k > 0 {
				s = "@" + strconv.Itoa(k) + " " + s
			}
			parts = append(parts, set.prefix+s)
		}
	}
	if !f.HigherIsBetter && len(parts) == 0 && f.Group != GroupCost {
		return "lower is better"
	}
	return strings.Join(parts, "; ")
}

func cell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
