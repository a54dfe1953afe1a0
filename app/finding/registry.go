package finding

import (
	"fmt"
	"sort"
	"sync"
)

// Rule describes one check. Every finding's Code is the Code of a registered
// Rule; the README's rule table and the page's help are generated from here.
type Rule struct {
	Code        string   `json:"code"`        // stable, dotted: "b2.unanswerable-gold"
	Severity    Severity `json:"severity"`    // severity of every finding of this rule
	Description string   `json:"description"` // one line, what the rule enforces
	Source      string   `json:"source"`      // the seed section (or spec) it enforces, e.g. "seed 000 §2.3"
	Hint        string   `json:"hint"`        // default fix hint
	Family      string   `json:"family"`      // grouping in the rule table: "zip", "jsonl", "schema", "b2", …
}

var (
	regMu    sync.RWMutex
	registry = map[string]*Rule{}
)

// Register adds r to the registry and returns a pointer to the stored rule.
// It panics on a duplicate code: that is a programming error caught by any test.
func Register(r Rule) *Rule {
	regMu.Lock()
	defer regMu.Unlock()
	if r.Code == "" {
		panic("finding: rule without code")
	}
	if _, dup := registry[r.Code]; dup {
		panic("finding: duplicate rule code " + r.Code)
	}
	p := &r
	registry[r.Code] = p
	return p
}

// Lookup returns the registered rule with code.
func Lookup(code string) (*Rule, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	r, ok := registry[code]
	return r, ok
}

// Rules returns every registered rule ordered by family, then code.
func Rules() []Rule {
	regMu.RLock()
	defer regMu.RUnlock()
	out := make([]Rule, 0, len(registry))
	for _, r := range registry {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Family != out[j].Family {
			return out[i].Family < out[j].Family
		}
		return out[i].Code < out[j].Code
	})
	return out
}

// At makes a finding of rule r at a location. The message is formatted with
// fmt.Sprintf; the hint is the rule's default hint.
func (r *Rule) At(path string, line int, pointer string, format string, args ...any) Finding {
	return Finding{
		Severity: r.Severity,
		Code:     r.Code,
		Path:     path,
		Line:     line,
		Pointer:  pointer,
		Message:  fmt.Sprintf(format, args...),
		Hint:     r.Hint,
	}
}

// WithHint returns f with its hint replaced (for a fix specific to the case).
func (f Finding) WithHint(h string) Finding {
	f.Hint = h
	return f
}
