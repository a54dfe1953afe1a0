package wire

import (
	"cmp"
	"slices"
	"strings"

	"eval752/app/report"
)

// Failed reports whether a run failed an item, as the "failures only" filter
// sees it: the run has no output for the item, or it was judged incorrect,
// or (for retrieval-only items, which carry no correctness) every per-item
// metric it got is 0.
func Failed(ri report.RunItem) bool {
	if ri.Missing {
		return true
	}
	if ri.Correct != nil {
		return !*ri.Correct
	}
	if len(ri.Scores) == 0 {
		return false
	}
	for _, e := range ri.Scores {
		if e.Value != 0 {
			return false
		}
	}
	return true
}

// Differ reports whether two runs did differently on one item: one is
// missing and the other not, their correctness differs, or a per-item metric
// both have differs.
func Differ(a, b report.RunItem) bool {
	if a.Missing != b.Missing {
		return true
	}
	if (a.Correct == nil) != (b.Correct == nil) || (a.Correct != nil && *a.Correct != *b.Correct) {
		return true
	}
	for k, va := range a.Scores.All() {
		if vb, ok := b.Scores.Get(k); ok && va != vb {
			return true
		}
	}
	return false
}

func runOf(it *report.ItemDetail, name string) (report.RunItem, bool) {
	for _, r := range it.Runs {
		if r.Run == name {
			return r, true
		}
	}
	return report.RunItem{}, false
}

// Match reports whether it passes q. runA and runB are the resolved run names
// of the differences filter.
func Match(it *report.ItemDetail, q ItemQuery, runA, runB string) bool {
	if q.ID != "" && it.ID != q.ID {
		return false
	}
	if s := strings.TrimSpace(q.Search); s != "" {
		s = strings.ToLower(s)
		if !strings.Contains(strings.ToLower(it.ID), s) && !strings.Contains(strings.ToLower(it.Question), s) {
			return false
		}
	}
	if q.Failures {
		failed := false
		for _, r := range it.Runs {
			if Failed(r) {
				failed = true
				break
			}
		}
		if !failed {
			return false
		}
	}
	if q.ErrorCode != "" && !slices.ContainsFunc(it.Runs, func(r report.RunItem) bool { return slices.Contains(r.Errors, q.ErrorCode) }) {
		return false
	}
	if q.Differences {
		a, okA := runOf(it, runA)
		b, okB := runOf(it, runB)
		if !okA || !okB || !Differ(a, b) {
			return false
		}
	}
	return true
}

// Runs lists the run names that appear in items, in first-seen order.
func Runs(items []report.ItemDetail) []string {
	seen := map[string]bool{}
	var out []string
	for i := range items {
		for _, r := range items[i].Runs {
			if !seen[r.Run] {
				seen[r.Run] = true
				out = append(out, r.Run)
			}
		}
	}
	return out
}

// Page applies q to items and returns the requested page. Limit is clamped
// to 1..500 (default 50) so one answer stays small.
func Page(items []report.ItemDetail, q ItemQuery) ItemPage {
	runs := Runs(items)
	a, b := q.RunA, q.RunB
	if a == "" && len(runs) > 0 {
		a = runs[0]
	}
	if b == "" {
		for _, r := range runs {
			if r != a {
				b = r
				break
			}
		}
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 50
	}
	limit = min(limit, 500)
	off := max(q.Offset, 0)
	p := ItemPage{Total: len(items), Offset: off, Items: []report.ItemDetail{}}
	var match []int
	for i := range items {
		if Match(&items[i], q, a, b) {
			match = append(match, i)
		}
	}
	sortItems(items, match, q, a, b)
	p.Matches = len(match)
	for _, i := range match[min(off, len(match)):min(off+limit, len(match))] {
		p.Items = append(p.Items, items[i])
	}
	return p
}

// sortItems orders the indices idx of items as q.Sort says (stably).
func sortItems(items []report.ItemDetail, idx []int, q ItemQuery, runA, runB string) {
	var key func(i int) (float64, bool) // false: no value (last)
	switch {
	case q.Sort == "id":
		slices.SortStableFunc(idx, func(x, y int) int {
			c := strings.Compare(items[x].ID, items[y].ID)
			if q.Desc {
				c = -c
			}
			return c
		})
		return
	case q.Sort == "differ":
		key = func(i int) (float64, bool) {
			ra, okA := runOf(&items[i], runA)
			rb, okB := runOf(&items[i], runB)
			if okA && okB && Differ(ra, rb) {
				return 0, true
			}
			return 1, true
		}
	case strings.HasPrefix(q.Sort, "metric:"):
		m := strings.TrimPrefix(q.Sort, "metric:")
		key = func(i int) (float64, bool) {
			r, ok := runOf(&items[i], runA)
			if !ok {
				return 0, false
			}
			return r.Scores.Get(m)
		}
	default:
		if q.Desc {
			slices.Reverse(idx)
		}
		return
	}
	slices.SortStableFunc(idx, func(x, y int) int {
		vx, okx := key(x)
		vy, oky := key(y)
		switch {
		case okx != oky:
			if okx {
				return -1
			}
			return 1
		case !okx:
			return 0
		}
		c := cmp.Compare(vx, vy)
		if q.Desc {
			c = -c
		}
		return c
	})
}
