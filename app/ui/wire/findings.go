package wire

import (
	"cmp"
	"slices"
	"sort"

	"eval752/app/finding"
)

// FindingsPage filters l by q and returns the requested page. Limit is
// clamped to 1..1000 (default 300): a set with 100k findings stays in the
// worker and only what the list shows crosses to the UI thread.
func FindingsPage(l finding.List, q FindingQuery) FindingPage {
	limit := q.Limit
	if limit <= 0 {
		limit = 300
	}
	limit = min(limit, 1000)
	off := max(q.Offset, 0)
	p := FindingPage{Total: len(l), Offset: off, Findings: finding.List{}}
	codes, paths := map[string]bool{}, map[string]bool{}
	var match []int
	for i, f := range l {
		codes[f.Code], paths[f.Path] = true, true
		if (q.Severity != "" && f.Severity.String() != q.Severity) || (q.Code != "" && f.Code != q.Code) || (q.Path != "" && f.Path != q.Path) {
			continue
		}
		match = append(match, i)
	}
	if by := findingOrder(q.Sort); by != nil {
		slices.SortStableFunc(match, func(a, b int) int {
			c := by(&l[a], &l[b])
			if q.Desc {
				c = -c
			}
			return c
		})
	} else if q.Desc {
		slices.Reverse(match)
	}
	p.Matches = len(match)
	for _, i := range match[min(off, len(match)):min(off+limit, len(match))] {
		p.Findings = append(p.Findings, l[i])
	}
	p.Codes, p.Paths = keys(codes), keys(paths)
	return p
}

// findingOrder compares two findings for a sort column (nil: as reported).
func findingOrder(col string) func(a, b *finding.Finding) int {
	switch col {
	case "":
		// finding.Error is 0: the most severe first
		return func(a, b *finding.Finding) int { return cmp.Compare(a.Severity, b.Severity) }
	case "rule":
		return func(a, b *finding.Finding) int { return cmp.Compare(a.Code, b.Code) }
	case "where":
		return func(a, b *finding.Finding) int {
			if c := cmp.Compare(a.Path, b.Path); c != 0 {
				return c
			}
			return cmp.Compare(a.Line, b.Line)
		}
	case "message":
		return func(a, b *finding.Finding) int { return cmp.Compare(a.Message, b.Message) }
	}
	return nil
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
