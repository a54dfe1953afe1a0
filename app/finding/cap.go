package finding

import (
	"fmt"
	"path"
	"strings"
)

// DefaultMaxFindings is how many findings of one rule code in one file are
// kept by default (the CLI's --max-findings); the rest are counted in one
// summary finding.
const DefaultMaxFindings = 1000

// weight is how many findings f stands for: 1, or More for a summary.
func (f Finding) weight() int {
	if f.More > 0 {
		return f.More
	}
	return 1
}

// Capper keeps the first n findings of each (rule code, file) as they are
// added and counts the rest, so a file with a million broken lines costs
// n findings of memory, not a million. n ≤ 0 keeps everything.
type Capper struct {
	n    int
	seen map[capKey]int
	more map[capKey]int
	sev  map[capKey]Severity
	keys []capKey
}

type capKey struct{ code, path string }

// NewCapper returns a Capper keeping n findings per rule code and file.
func NewCapper(n int) *Capper {
	return &Capper{n: n, seen: map[capKey]int{}, more: map[capKey]int{}, sev: map[capKey]Severity{}}
}

// Keep reports whether f is kept (and counts it either way). A summary
// finding (More > 0) is folded into the count.
func (c *Capper) Keep(f Finding) bool {
	if c == nil || c.n <= 0 {
		return true
	}
	k := capKey{f.Code, f.Path}
	if f.More > 0 {
		c.drop(k, f.Severity, f.More)
		return false
	}
	if c.seen[k] < c.n {
		c.seen[k]++
		return true
	}
	c.drop(k, f.Severity, 1)
	return false
}

func (c *Capper) drop(k capKey, sev Severity, n int) {
	if _, ok := c.more[k]; !ok {
		c.keys = append(c.keys, k)
	}
	c.more[k] += n
	if s, ok := c.sev[k]; !ok || sev > s {
		c.sev[k] = sev
	}
}

// Summaries returns one summary finding per (code, file) that lost
// findings, in the order they were first dropped.
func (c *Capper) Summaries() List {
	if c == nil {
		return nil
	}
	var out List
	for _, k := range c.keys {
		n := c.more[k]
		out = append(out, Finding{Severity: c.sev[k], Code: k.code, Path: k.path, More: n,
			Message: fmt.Sprintf("… and %s more %s in %s (the first %d are listed; --max-findings sets how many)", thousands(n), k.code, baseName(k.path), c.n)})
	}
	return out
}

// Cap keeps the first n findings of each rule code and file of l (in l's
// order) and replaces the rest by one summary finding each, folding the
// summaries l already holds; Counts and PerCode are unchanged by it. n ≤ 0
// returns l.
func (l List) Cap(n int) List {
	if n <= 0 {
		return l
	}
	c := NewCapper(n)
	out := make(List, 0, len(l))
	for _, f := range l {
		if c.Keep(f) {
			out = append(out, f)
		}
	}
	if len(c.keys) == 0 {
		return out
	}
	return append(out, c.Summaries()...).Normalize()
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '!'); i >= 0 {
		p = p[i+1:]
	}
	return path.Base(p)
}

// thousands writes n with commas: 48211 → "48,211".
func thousands(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}
