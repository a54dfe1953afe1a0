package wire

import (
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
	for _, f := range l {
		codes[f.Code], paths[f.Path] = true, true
		if (q.Severity != "" && f.Severity.String() != q.Severity) || (q.Code != "" && f.Code != q.Code) || (q.Path != "" && f.Path != q.Path) {
			continue
		}
		if p.Matches >= off && len(p.Findings) < limit {
			p.Findings = append(p.Findings, f)
		}
		p.Matches++
	}
	p.Codes, p.Paths = keys(codes), keys(paths)
	return p
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
